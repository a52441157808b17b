"""stokesian's report renderer: every report (the nightly regression report and its history, the
precision and time-step studies, the port check) rendered from the data the C++ tools write (JSON,
HDF5) with Jinja2 templates (templates/) and matplotlib figures.

    /usr/bin/python3 tools/report nightly REPORT_DIR [--history DIR]
    /usr/bin/python3 tools/report study STUDY_DIR [--no-figures]
    /usr/bin/python3 tools/report port-check REPORT_DIR [--no-figures]
    /usr/bin/python3 tools/report history DIR

Needs Debian's python3-jinja2, python3-matplotlib, python3-h5py and python3-numpy (ci/setup
installs them); exit status 3 names a missing one.
"""
