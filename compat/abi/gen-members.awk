# SPDX-License-Identifier: GPL-2.0
# Turns compat/abi/members into the static assertions of the ABI guard.
/^#/ || NF < 3 { next }
{
	s = $1; m = $2; c = $3; cond = $4
	if (cond ~ /^ifdef:/)
		print "#ifdef " substr(cond, 7)
	else if (cond ~ /^ifndef:/)
		print "#ifndef " substr(cond, 8)
	if (c == "size") {
		printf "static_assert(sizeof(struct cs_abi_%s) == sizeof(struct %s),\n\t      \"size of struct %s\");\n", s, s, s
	} else {
		printf "static_assert(offsetof(struct cs_abi_%s, %s) ==\n\t      offsetof(struct %s, %s), \"offset of %s.%s\");\n", s, m, s, m, s, m
		printf "static_assert(sizeof_field(struct cs_abi_%s, %s) ==\n\t      sizeof_field(struct %s, %s), \"size of %s.%s\");\n", s, m, s, m, s, m
		if (c == "type")
			printf "static_assert(__builtin_types_compatible_p(typeof(((struct cs_abi_%s *)0)->%s),\n\t\t\t\t\t   typeof(((struct %s *)0)->%s)),\n\t      \"type of %s.%s\");\n", s, m, s, m, s, m
	}
	if (cond != "")
		print "#endif"
}
