# SPDX-License-Identifier: GPL-2.0
#
# Packaging and installation without DKMS (included by the top Makefile).
#
# make deb            build out/deb/ctxsched-dkms_<VERSION>_all.deb (and the
#                     source package) from the checkout, with debhelper and
#                     dh-dkms from the Debian archive; no network needed
# make deb-lint       run lintian on the built package
# make deb-deps       install what `make deb` and `make deb-lint` need (root)
# make install        build for KDIR (default: the running kernel), install
#                     ctxsched.ko into /lib/modules/<release>/updates/ and
#                     run depmod; DESTDIR=<dir> installs under <dir>
# make uninstall      remove that ctxsched.ko again and run depmod
# make pkg-test       the package test with its VM part: install the .deb in
#                     guests running Debian's 6.1 and 6.12 kernels (about 25
#                     minutes; make check runs the host part only)

CS_VERSION := $(shell cat $(CURDIR)/VERSION 2>/dev/null)
CS_DEB_OUT ?= $(CURDIR)/out/deb
CS_DEB_SRC := $(CS_DEB_OUT)/ctxsched-$(CS_VERSION)
CS_DEB := $(CS_DEB_OUT)/ctxsched-dkms_$(CS_VERSION)_all.deb
CS_DEB_DEPS := dpkg-dev debhelper dh-dkms lintian rsync
# Author of the generated changelog entry (Debian's usual variables).
DEBFULLNAME ?= ctxsched developers
DEBEMAIL ?= ctxsched-devel@ctxsched.invalid

# The release of the kernel in KDIR, so that `make install KDIR=...`
# installs for that kernel and not for the running one.  (utsrelease.h, not
# include/config/kernel.release: Debian's 6.1 headers have 6.1.192 there.)
CS_KREL = $(or $(shell sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' $(KDIR)/include/generated/utsrelease.h 2>/dev/null),$(KVER))
CS_UPDATES = $(DESTDIR)/lib/modules/$(CS_KREL)/updates

.PHONY: deb deb-lint deb-deps install uninstall pkg-test

# Builds in a copy of the checkout (tracked and new files, not ignored ones)
# so that dpkg-buildpackage's products and debian/ scratch files stay out of
# the work tree.  debian/changelog is written here from VERSION, the one
# place the version is kept; its date is the last commit's, so that two
# builds of one commit give the same package.
deb:
	@command -v dpkg-buildpackage >/dev/null && command -v dh_dkms >/dev/null || \
		{ echo "ctxsched: make deb needs: $(CS_DEB_DEPS) (make deb-deps installs them)" >&2; exit 1; }
	@[ -n "$(CS_VERSION)" ] || { echo "ctxsched: no VERSION file" >&2; exit 1; }
	rm -rf $(CS_DEB_OUT)
	mkdir -p $(CS_DEB_SRC)
	rsync -a --exclude=/.git --exclude=/build --exclude=/out \
		--exclude=/debian/ctxsched-dkms/ --exclude=/debian/.debhelper/ \
		--exclude='/debian/*debhelper*' --exclude='/debian/*.substvars' \
		--exclude=/debian/files --filter=':- .gitignore' \
		$(CURDIR)/ $(CS_DEB_SRC)/
	@date=$$(git -C $(CURDIR) log -1 --format=%cD 2>/dev/null) || date=; \
	[ -n "$$date" ] || date=$$(date -R); \
	{ echo "ctxsched ($(CS_VERSION)) unstable; urgency=medium"; echo; \
	  echo "  * Release $(CS_VERSION) (see the git history for the changes)."; \
	  echo; echo " -- $(DEBFULLNAME) <$(DEBEMAIL)>  $$date"; \
	} > $(CS_DEB_SRC)/debian/changelog
	cd $(CS_DEB_SRC) && dpkg-buildpackage -us -uc --build=source,all
	@ls $(CS_DEB) >/dev/null && echo "ctxsched: built $(CS_DEB)"

deb-lint:
	@[ -f $(CS_DEB) ] || { echo "ctxsched: no $(CS_DEB); run make deb first" >&2; exit 1; }
	lintian --info --display-info --pedantic $(CS_DEB_OUT)/ctxsched_$(CS_VERSION)_all.changes \
		$(CS_DEB)

deb-deps:
	@missing=; for p in $(CS_DEB_DEPS); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || \
			missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then echo "ctxsched: packaging tools present"; \
	else echo "ctxsched: installing$$missing"; \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $$missing; fi

# For machines without DKMS.  The module goes to updates/ so that it is found
# before any in-tree module of the same name; a DKMS-installed copy for the
# same kernel would compete with it, so that is refused.
install: modules
	@if [ -z "$(DESTDIR)" ] && ls /lib/modules/$(CS_KREL)/updates/dkms/ctxsched.ko* >/dev/null 2>&1; then \
		echo "ctxsched: DKMS already installed ctxsched for $(CS_KREL);" \
		     "remove it first (apt remove ctxsched-dkms, or dkms remove ctxsched/$(CS_VERSION) -k $(CS_KREL))" >&2; \
		exit 1; \
	fi
	install -D -m 644 $(CURDIR)/ctxsched.ko $(CS_UPDATES)/ctxsched.ko
	depmod $(if $(DESTDIR),-b $(DESTDIR)) $(CS_KREL)
	@echo "ctxsched: installed $(CS_UPDATES)/ctxsched.ko; load it with: modprobe ctxsched"

uninstall:
	rm -f $(CS_UPDATES)/ctxsched.ko
	@if [ -d $(DESTDIR)/lib/modules/$(CS_KREL) ]; then \
		echo depmod $(if $(DESTDIR),-b $(DESTDIR)) $(CS_KREL); \
		depmod $(if $(DESTDIR),-b $(DESTDIR)) $(CS_KREL); \
	fi
	@if lsmod 2>/dev/null | grep -q '^ctxsched '; then \
		echo "ctxsched: the module is still loaded; switch its disks to another scheduler and rmmod ctxsched"; \
	fi

pkg-test:
	tests/pkg-test
