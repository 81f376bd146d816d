// The OpenCL program of the rubble backend: every kernel of the kernel set, from the device kernels
// shared with the CUDA backend (backend-gpu/kernels/). embed_kernels.py inlines the #includes (those
// files and core/kernels/) into one string at build time.
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
