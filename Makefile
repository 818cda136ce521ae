# SPDX-License-Identifier: GPL-2.0
#
# make                build ctxsched.ko for the running kernel
# make KDIR=<dir>     ... or for the kernel whose build tree is <dir>
#                     (e.g. /usr/src/linux-headers-6.12.117+deb12-amd64)
# make W=1            ... with extra warnings (the tree builds clean)
# make demo          build and show ctxsched on a disk in a VM (no KVM needed)
# make check         the whole test suite (host checks, VM tests), as CI runs it
# make abi-check     the ABI guard against Debian's linux-source trees (6.1,
#                    6.12; 7.2 and 7.3 from trixie-backports, in a trixie root)

KVER ?= $(shell uname -r)
KDIR ?= /lib/modules/$(KVER)/build
PWD := $(CURDIR)

.PHONY: all modules clean check-kdir demo check abi-check

all: modules

check-kdir:
	@if [ ! -f "$(KDIR)/Makefile" ]; then \
		echo "ctxsched: no kernel build tree at $(KDIR)." >&2; \
		echo "ctxsched: install linux-headers-$(KVER) or pass KDIR=<build tree>." >&2; \
		exit 1; \
	fi

modules: check-kdir
	$(MAKE) -C $(KDIR) M=$(PWD) modules

clean:
	@if [ -f "$(KDIR)/Makefile" ]; then $(MAKE) -C $(KDIR) M=$(PWD) clean; fi
	rm -rf build out

demo:
	tools/demo

check:
	tests/check

abi-check:
	tests/host/abi-guard.sh 6.1
	tests/host/abi-guard.sh 6.12
	tests/host/abi-guard.sh 7.2
	tests/host/abi-guard.sh 7.3

# Further targets (packaging, simulators, benchmarks) live in mk/*.mk.
include $(wildcard $(CURDIR)/mk/*.mk)
