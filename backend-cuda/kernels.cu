// The CUDA program of the rubble backend: every kernel of the kernel set, from the device kernels
// shared with the OpenCL backend (backend-gpu/kernels/) and the physics of core/kernels/, compiled by
// nvcc (meson.build) into the fat binary that cuda_backend.c loads.
#include "device_common.h"
#include "device_scan.h"
#include "device_bounds.h"
#include "device_broad_phase.h"
#include "device_narrow_phase.h"
#include "device_batches.h"
#include "device_solve.h"
#include "device_joints.h"
#include "device_shock.h"
#include "device_integrate.h"
#include "device_continuous.h"
