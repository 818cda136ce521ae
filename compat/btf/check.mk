# SPDX-License-Identifier: GPL-2.0
#
# Included by the top Kbuild: before any of ctxsched's objects is compiled,
# compare compat/'s declarations of the block layer's private structures
# with the BTF of the kernel being built for (compat/btf/check).  A mismatch
# stops the build; a kernel without BTF is built with a warning.
#
# layout.o carries compat/'s types as DWARF; it is not linked into a module.
always-y += compat/btf/layout.o compat/btf/checked
targets += compat/btf/checked
CFLAGS_compat/btf/layout.o := -g -gdwarf-4 $(call cc-option,-gno-split-dwarf)

quiet_cmd_cs_btf_check = BTFCHK  $(KERNELRELEASE)
      cmd_cs_btf_check = bash $(src)/compat/btf/check $(KERNELRELEASE) $< \
			 $(abspath $(objtree)) && touch $@

$(obj)/compat/btf/checked: $(obj)/compat/btf/layout.o FORCE
	$(call cmd,cs_btf_check)

# Every object of ctxsched.ko waits for the check (order only: a passed
# check does not make them out of date).
$(addprefix $(obj)/,$(ctxsched-y)): | $(obj)/compat/btf/checked
