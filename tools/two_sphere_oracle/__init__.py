"""An independent oracle for the hydrodynamic functions of two equal spheres (issue #30, item 3).

Python + mpmath only, sharing no code with the engine:
  twin_multipole.py  Jeffrey & Onishi's (1984) twin-multipole recurrences, resistance and mobility,
                     specialised to equal spheres
  series.py          summing those series near contact (singular part subtracted, error bounded)
  bispherical.py     Stimson & Jeffery's (1926) and Brenner's (1961) exact axisymmetric drag
  pair.py            the scalar functions, the torque-free mobility, the drag factors
  table.py           the committed table's grid, columns and file format
  generate.py        writes reference_data/two_sphere/exact_two_sphere.csv
  check.py           the quick self-check (CTest TwoSphereOracle.SelfCheck)
engine/docs/two-sphere-oracle.md describes the equations, the accuracy and how to regenerate.
"""
