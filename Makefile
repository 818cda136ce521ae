# SPDX-License-Identifier: GPL-2.0
#
# make                build ctxsched.ko for the running kernel
# make KDIR=<dir>     ... or for the kernel whose build tree is <dir>
#                     (e.g. /usr/src/linux-headers-6.12.117+deb12-amd64)
# make W=1            ... with extra warnings (the tree builds clean)
# See README.rst for the test and VM targets.

KVER ?= $(shell uname -r)
KDIR ?= /lib/modules/$(KVER)/build
PWD := $(CURDIR)

.PHONY: all modules clean check-kdir

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
