/* SPDX-License-Identifier: GPL-2.0 */
#ifndef HDDSIM_PROFILE_H
#define HDDSIM_PROFILE_H

#include <linux/types.h>

#include "model.h"

struct hs_profile {
	const char *name;
	struct hs_params p;
};

const char *hs_parse(char *spec, struct hs_params *p);
int hs_format(const char *name, const struct hs_params *p, char *buf,
	      size_t size);

#endif
