/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CS_SIM_MODULE_H
#define CS_SIM_MODULE_H
#include "../sim-shim.h"
/* Module information has nowhere to go on the host. */
#define MODULE_LICENSE(x)	static_assert(sizeof(x) > 1, "license")
#define MODULE_DESCRIPTION(x)	static_assert(sizeof(x) > 1, "description")
#define MODULE_AUTHOR(x)	static_assert(sizeof(x) > 1, "author")
#endif
