#pragma once
// The few LAPACK routines the observables call (reference LAPACK, linked statically; see
// cmake/StokesianDependencies.cmake). gfortran passes the length of every CHARACTER argument as a
// hidden trailing size_t, declared here explicitly. INTEGER is 32-bit (no -fdefault-integer-8).
#include <cstddef>

extern "C" {
void dpotrf_(const char* uplo, const int* n, double* a, const int* lda, int* info, std::size_t uplo_length);
void dsyevr_(const char* jobz, const char* range, const char* uplo, const int* n, double* a, const int* lda,
             const double* vl, const double* vu, const int* il, const int* iu, const double* abstol, int* m, double* w,
             double* z, const int* ldz, int* isuppz, double* work, const int* lwork, int* iwork, const int* liwork,
             int* info, std::size_t jobz_length, std::size_t range_length, std::size_t uplo_length);
}

extern "C" {
void dpotrs_(const char* uplo, const int* n, const int* nrhs, const double* a, const int* lda, double* b,
             const int* ldb, int* info, std::size_t uplo_length);
void dstev_(const char* jobz, const int* n, double* d, double* e, double* z, const int* ldz, double* work, int* info,
            std::size_t jobz_length);
}
