// The driver API callbacks through which every kernel launch passes: the shim subscribes to these, and
// bench/cupti-floor.cpp to the same ones, so that the floor it measures is the shim's.
#pragma once

#include <cupti.h>

namespace roofcheck::runtime {

inline constexpr CUpti_CallbackId launchCallbackIds[] = {
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch,
    CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz,
};

} // namespace roofcheck::runtime
