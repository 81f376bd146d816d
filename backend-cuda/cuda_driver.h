// The part of the CUDA driver API the backend uses, loaded at run time from the NVIDIA driver's
// libcuda.so.1 (dlopen), so that librubble-cuda.so loads on any machine and a missing driver is a clear
// message rather than a loader error. The declarations follow cuda.h; the names are the ABI's
// (cuMemAlloc_v2 and so on), and these types and values have been stable since CUDA 4.
#ifndef RB_CUDA_DRIVER_H
#define RB_CUDA_DRIVER_H

#include <stddef.h>

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;

#define CUDA_SUCCESS 0
#define CUDA_ERROR_OUT_OF_MEMORY 2
#define CUDA_ERROR_NO_DEVICE 100
#define CUDA_ERROR_NO_BINARY_FOR_GPU 209
#define CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES 701
#define CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT 16
#define CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR 75
#define CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR 76
#define CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK 0

typedef struct rb_cuda_driver {
    CUresult (*cuInit)(unsigned int flags);
    CUresult (*cuDriverGetVersion)(int *version);
    CUresult (*cuGetErrorName)(CUresult error, const char **name);
    CUresult (*cuGetErrorString)(CUresult error, const char **text);
    CUresult (*cuDeviceGetCount)(int *count);
    CUresult (*cuDeviceGet)(CUdevice *device, int ordinal);
    CUresult (*cuDeviceGetName)(char *name, int len, CUdevice device);
    CUresult (*cuDeviceGetAttribute)(int *value, int attribute, CUdevice device);
    CUresult (*cuDeviceTotalMem)(size_t *bytes, CUdevice device);
    CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *ctx, CUdevice device);
    CUresult (*cuDevicePrimaryCtxRelease)(CUdevice device);
    CUresult (*cuCtxSetCurrent)(CUcontext ctx);
    CUresult (*cuCtxSynchronize)(void);
    CUresult (*cuModuleLoadData)(CUmodule *module, const void *image);
    CUresult (*cuModuleUnload)(CUmodule module);
    CUresult (*cuModuleGetFunction)(CUfunction *fn, CUmodule module, const char *name);
    CUresult (*cuFuncGetAttribute)(int *value, int attribute, CUfunction fn);
    CUresult (*cuMemAlloc)(CUdeviceptr *ptr, size_t bytes);
    CUresult (*cuMemFree)(CUdeviceptr ptr);
    CUresult (*cuMemcpyHtoD)(CUdeviceptr dst, const void *src, size_t bytes);
    CUresult (*cuMemcpyDtoH)(void *dst, CUdeviceptr src, size_t bytes);
    CUresult (*cuMemcpyDtoD)(CUdeviceptr dst, CUdeviceptr src, size_t bytes);
    CUresult (*cuMemsetD8)(CUdeviceptr dst, unsigned char value, size_t count);
    CUresult (*cuLaunchKernel)(CUfunction fn, unsigned grid_x, unsigned grid_y, unsigned grid_z, unsigned block_x,
                               unsigned block_y, unsigned block_z, unsigned shared_bytes, CUstream stream,
                               void **params, void **extra);
} rb_cuda_driver;

// Loads libcuda.so.1 (or RUBBLE_CUDA_DRIVER, a path) and initialises the driver (once per process). On failure returns NULL and says
// why in msg ("libcuda.so.1 cannot be loaded: ...", "cuInit failed: CUDA_ERROR_NO_DEVICE ...").
const rb_cuda_driver *rb_cuda_driver_load(char *msg, size_t msg_size);

// "CUDA_ERROR_OUT_OF_MEMORY (out of memory)".
void rb_cuda_error_text(const rb_cuda_driver *d, CUresult r, char *out, size_t size);

#endif
