/* SPDX-License-Identifier: GPL-2.0 */
/* <errno.h> comes here through the system headers: pass it on. */
#include_next <linux/errno.h>
#include "../sim-kernel.h"
