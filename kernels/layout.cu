// Generic strided gather/scatter: copies a box of rank <= FFTX_MAX_RANK between two arbitrary
// strided layouts (element units; negative strides allowed), e.g. an FFTW guru layout into a
// packed work buffer and back.
//
// Rust twin: crate::exec::twins::strided_copy / strided_copy_shape (src/exec/twins.rs); the
// helpers strided_total and strided_offsets have twins of the same name there, and the by-value
// parameter StridedShape is twins::StridedShape (#[repr(C)], same layout: 3 x 8 int64).
//
// Compiled at run time by NVRTC: no #include. 64-bit indexing, grid-stride loop; element i of
// the box in row-major order (last dimension fastest) is handled by one thread per step.
// A zero or overlapping destination stride makes threads race (the twin writes in order).

#define FFTX_MAX_RANK 8

struct StridedShape {
    long long n[FFTX_MAX_RANK];
    long long src_stride[FFTX_MAX_RANK];
    long long dst_stride[FFTX_MAX_RANK];
};

// Twin: twins::strided_total. Number of elements: 1 for rank 0, 0 if any n <= 0 or the rank is
// not in 0..=FFTX_MAX_RANK.
__device__ __forceinline__ long long strided_total(int rank, const StridedShape& shape) {
    if (rank < 0 || rank > FFTX_MAX_RANK) {
        return 0;
    }
    long long total = 1;
    for (int d = 0; d < rank; d++) {
        if (shape.n[d] <= 0) {
            return 0;
        }
        total *= shape.n[d];
    }
    return total;
}

// Twin: twins::strided_offsets. Source and destination offsets (relative to the offsets) of
// row-major element i.
__device__ __forceinline__ void strided_offsets(int rank, const StridedShape& shape, long long i, long long* so,
                                                long long* dof) {
    long long rest = i;
    long long s = 0, t = 0;
    for (int d = rank - 1; d >= 0; d--) {
        long long c = rest % shape.n[d];
        rest /= shape.n[d];
        s += c * shape.src_stride[d];
        t += c * shape.dst_stride[d];
    }
    *so = s;
    *dof = t;
}

// Twin: twins::strided_copy_shape.
template <typename T>
__device__ __forceinline__ void strided_copy_impl(int rank, const StridedShape& shape, const T* src, long long src_offset,
                                                  T* dst, long long dst_offset) {
    long long total = strided_total(rank, shape);
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < total;
         i += (long long)blockDim.x * gridDim.x) {
        long long so, dof;
        strided_offsets(rank, shape, i, &so, &dof);
        dst[dst_offset + dof] = src[src_offset + so];
    }
}

// Twin: twins::strided_copy (f32 elements).
extern "C" __global__ void strided_copy_f32(int rank, StridedShape shape, const float* src, long long src_offset,
                                            float* dst, long long dst_offset) {
    strided_copy_impl<float>(rank, shape, src, src_offset, dst, dst_offset);
}

// Twin: twins::strided_copy (f64 elements).
extern "C" __global__ void strided_copy_f64(int rank, StridedShape shape, const double* src, long long src_offset,
                                            double* dst, long long dst_offset) {
    strided_copy_impl<double>(rank, shape, src, src_offset, dst, dst_offset);
}

// Twin: twins::strided_copy (complex f32 elements, one float2 each).
extern "C" __global__ void strided_copy_c32(int rank, StridedShape shape, const float2* src, long long src_offset,
                                            float2* dst, long long dst_offset) {
    strided_copy_impl<float2>(rank, shape, src, src_offset, dst, dst_offset);
}

// Twin: twins::strided_copy (complex f64 elements, one double2 each).
extern "C" __global__ void strided_copy_c64(int rank, StridedShape shape, const double2* src, long long src_offset,
                                            double2* dst, long long dst_offset) {
    strided_copy_impl<double2>(rank, shape, src, src_offset, dst, dst_offset);
}
