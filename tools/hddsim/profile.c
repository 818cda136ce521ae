// SPDX-License-Identifier: GPL-2.0
/*
 * hddsim profiles and the "profile:key=value:..." device specification.
 *
 * The figures are those of the kind of hardware in the seed threads (2009-10
 * measurements); README.rst gives the sources and why each value was chosen.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/stddef.h>
#include <linux/string.h>

#include "profile.h"

/* A 500 GB 7200 rpm desktop SATA disk: one platter, 16 MB cache, NCQ. */
#define HS_SATA_DRIVE \
	.rpm = 7200, .seek_t2t_us = 800, .seek_avg_us = 8500, \
	.seek_full_us = 17000, .write_settle_us = 1000, .heads = 2, \
	.zones = 16, .outer_kbps = 65000, .inner_kbps = 46200, \
	.cache_kb = 16384, .segments = 4, .overhead_us = 150, \
	.max_age_ms = 250

static const struct hs_profile hs_profiles[] = {
	{ "sata", {
		HS_SATA_DRIVE, .readahead_kb = 4096, .qdepth = 32,
		.link_kbps = 300000, .spindles = 1, .size_mb = 476940,
	} },
	/*
	 * Twelve of those drives striped in 128 KiB units behind a 4 Gb/s
	 * link; the member disks run with read look-ahead disabled.
	 */
	{ "array12", {
		HS_SATA_DRIVE, .readahead_kb = 0, .qdepth = 32,
		.link_kbps = 400000, .spindles = 12, .chunk_kb = 128,
		.size_mb = 12 * 476940,
	} },
	/*
	 * Eight of them in 64 KiB units behind the same link: another array
	 * shape, so that the device model is not tuned to one.
	 */
	{ "array8", {
		HS_SATA_DRIVE, .readahead_kb = 0, .qdepth = 32,
		.link_kbps = 400000, .spindles = 8, .chunk_kb = 64,
		.size_mb = 8 * 476940,
	} },
	/* An 80 GB SATA SSD of 2009 (Intel X25-M G2 class). */
	{ "ssd", {
		.rpm = 0, .overhead_us = 20, .read_lat_us = 65,
		.write_lat_us = 85, .write_kbps = 70000, .qdepth = 32,
		.link_kbps = 260000, .spindles = 1, .size_mb = 76294,
	} },
};

#define HS_KEY(f) { #f, offsetof(struct hs_params, f) }

static const struct {
	const char *name;
	size_t off;
} hs_keys[] = {
	HS_KEY(rpm), HS_KEY(seek_t2t_us), HS_KEY(seek_avg_us),
	HS_KEY(seek_full_us), HS_KEY(write_settle_us), HS_KEY(heads),
	HS_KEY(zones), HS_KEY(outer_kbps), HS_KEY(inner_kbps),
	HS_KEY(cache_kb), HS_KEY(segments), HS_KEY(readahead_kb),
	HS_KEY(qdepth), HS_KEY(overhead_us), HS_KEY(max_age_ms),
	HS_KEY(link_kbps), HS_KEY(read_lat_us), HS_KEY(write_lat_us),
	HS_KEY(write_kbps), HS_KEY(spindles), HS_KEY(chunk_kb),
	HS_KEY(size_mb),
};

static u32 *hs_field(struct hs_params *p, unsigned int i)
{
	return (u32 *)((char *)p + hs_keys[i].off);
}

/**
 * hs_parse() - parse one device specification
 * @spec: "profile[:key=value]...", modified in place
 * @p: the resulting parameters
 *
 * Return: the profile's name, or %NULL when the profile or a key is
 * unknown or a value is not a decimal or hex number.
 */
const char *hs_parse(char *spec, struct hs_params *p)
{
	const struct hs_profile *prof = NULL;
	char *name, *kv, *val;
	unsigned int i;

	name = strsep(&spec, ":");
	for (i = 0; i < ARRAY_SIZE(hs_profiles); i++)
		if (!strcmp(name, hs_profiles[i].name))
			prof = &hs_profiles[i];
	if (!prof)
		return NULL;
	*p = prof->p;
	while ((kv = strsep(&spec, ":"))) {
		val = strchr(kv, '=');
		if (!val)
			return NULL;
		*val++ = '\0';
		for (i = 0; i < ARRAY_SIZE(hs_keys); i++)
			if (!strcmp(kv, hs_keys[i].name))
				break;
		if (i == ARRAY_SIZE(hs_keys) || kstrtou32(val, 0, hs_field(p, i)))
			return NULL;
	}
	return prof->name;
}

/**
 * hs_format() - print parameters as a device specification
 * @name: profile name
 * @p: parameters
 * @buf: output
 * @size: size of @buf
 *
 * Return: the length of the text (truncated to @size - 1).
 */
int hs_format(const char *name, const struct hs_params *p, char *buf,
	      size_t size)
{
	struct hs_params tmp = *p;
	unsigned int i;
	int n;

	n = scnprintf(buf, size, "%s", name);
	for (i = 0; i < ARRAY_SIZE(hs_keys); i++)
		n += scnprintf(buf + n, size - n, ":%s=%u", hs_keys[i].name,
			       *hs_field(&tmp, i));
	return n;
}
