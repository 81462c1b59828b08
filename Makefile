# SPDX-License-Identifier: GPL-2.0
#
# led_pattern: the only entry point.  `make help` lists the targets.
#
# Everything the build writes goes below $(O) (default build/, git-ignored).
#
# The series is for Linux 6.12 as Debian's linux-source-6.12 installs it
# (Debian 13's kernel, a long-term kernel).  The last version for 6.1 is
# commit 4e4b75a of this repository (README).
BASE := 6.12
O ?= build
SERIES_DIR := series
# the N900's device tree, as kbuild names its target
N900_DTB := ti/omap/omap3-n900.dtb
# Kernel parameters every boot of the board adds (qemu/board/boot.sh).
# 6.12 links drivers/leds before drivers/i2c: the lp55xx drivers are there
# when the virtio I2C adapter registers, and probe their chips inside the virtio
# probe, before DRIVER_OK, when QEMU 7.2 has not started the vhost-user
# queue yet: the first transfer never completes.  Probed asynchronously,
# they run once the adapter is live (Documentation/rig.md).
BOARD_CMDLINE := driver_async_probe=lp5523x,lp5569,lp8501
override O := $(abspath $(O))
TOP := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
# the board's kernel config fragment and the KUnit plans every boot must show
KCONF := $(TOP)/qemu/board/kernel.config
EXPECTED := $(TOP)/guest-tests/expected-results

ifeq ($(V),1)
Q :=
else
Q := @
endif
step = @printf '  %-7s %s\n' '$(1)' '$(2)'

# Debian packages the build installs when `dpkg -s` says they are missing.
HOST_PACKAGES := linux-source-$(BASE) gcc-aarch64-linux-gnu qemu-system-arm \
	device-tree-compiler bc bison flex libssl-dev libelf-dev cpio ccache \
	sparse dt-schema git xz-utils dpkg-dev python3 python3-ply python3-git \
	make gcc gnuplot-nox libc6-dev-arm64-cross gcc-arm-linux-gnueabihf yamllint
# arm64 packages downloaded and unpacked (never installed) into $(O): the
# static busybox, and the LED clients users already have with the C
# library they link to.
ARM64_CLIENTS := brightnessctl light libc6
ARM64_PACKAGES := busybox-static $(ARM64_CLIENTS)

ARCH := arm64
CROSS_COMPILE := aarch64-linux-gnu-
KERNEL_TARBALL := /usr/src/linux-source-$(BASE).tar.xz
KSRC := $(O)/linux
KJOBS := $(if $(filter -j%,$(MAKEFLAGS)),,-j$(shell nproc))
# flock: one kbuild at a time in an output directory, whoever starts it.
KMAKE = flock $(1).lock $(MAKE) $(KJOBS) -C $(KSRC) O=$(1) ARCH=$(ARCH) \
	CROSS_COMPILE=$(CROSS_COMPILE) \
	KBUILD_BUILD_USER=led_pattern KBUILD_BUILD_HOST=board $(if $(V),V=$(V))
# ccache in masquerade mode: a directory early in PATH whose compiler
# names are links to ccache, which then runs the next one in PATH.
export CCACHE_DIR := $(O)/ccache
# Paths relative to $(O) in ccache's hash, and not kbuild's
# -fmacro-prefix-map (it names the source tree, which __FILE__ then
# drops anyway): the bisect worktree, built in $(O)/bisect/kbuild, hits the
# entries of the main tree built in $(O)/kbuild.
export CCACHE_BASEDIR := $(O)
export CCACHE_IGNOREOPTIONS := -fmacro-prefix-map=*
export PATH := $(O)/ccache-bin:$(PATH)

SERIES := $(TOP)/$(SERIES_DIR)/series
PATCHES := $(addprefix $(TOP)/$(SERIES_DIR)/,$(shell sed -e 's/\#.*//' $(SERIES) 2>/dev/null))

SMP ?= 2
QEMU := qemu-system-aarch64

.PRECIOUS: $(O)/smp%/virt.dts
.PHONY: help deps tree export kernel kernel-debug dtb initramfs emu run guest \
	host-checks check check-debug check-series bench plots demo clean FORCE
.DELETE_ON_ERROR:

help:
	@echo 'led_pattern: LED pattern engines for Linux $(BASE) on an emulated LP5523'
	@echo ''
	@echo '  make run            boot the board to a shell, live view of the LP5523 outputs'
	@echo '  make check          build everything, run all tests; last line "N passed, N failed"'
	@echo '  make check-debug    the guest tests on the debug kernel (lockdep, KASAN, ...)'
	@echo '  make check-series   every prefix of $(SERIES_DIR)/ builds and links (LEDs as modules); ARCH=arm W=1 (omap2plus); N900 dt-schema'
	@echo '  make demo           the scenes of make run, unattended (exits 0 when they work)'
	@echo '  make bench          timing figures against upstream ledtrig-pattern'
	@echo '  make plots          PNG charts of the bench timeline (runs make bench if none)'
	@echo '  make guest SCRIPT=f run script f as root on the booted board, keep the timeline'
	@echo '  make tree           unpack the kernel into $(O)/linux and apply $(SERIES_DIR)/'
	@echo '  make export         write the commits of $(O)/linux back to $(SERIES_DIR)/'
	@echo '  make kernel         build $(O)/Image (also kernel-debug)'
	@echo '  make deps           install missing Debian packages'
	@echo '  make clean          remove $(O)'
	@echo ''
	@echo '  O=dir  build directory (default $(patsubst $(TOP)/%,%,$(O)))   SMP=n  guest CPUs (default 2)'
	@echo '  IMAGE=path  boot another kernel Image    ONLY=a,b  check only these suites'
	@echo '  GUEST_OUT=dir  make guest output         RESULTS=dir  make check results'
	@echo '  EMU_ARGS="..."  extra emulator options for make guest (e.g. --trace)'
	@echo '  BOARD=family     run, guest, demo on the board with an LP5569 and an LP8501'
	@echo '  DEBUG=0     make check without the debug-kernel boot'
	@echo '  CHECK_SERIES=1  make check runs make check-series beside its first boot, then alone'
	@echo '  V=1    show full commands'

# ---------------------------------------------------------------- packages
# Re-checked when the package lists (in this Makefile) change.
$(O)/.stamp_deps: $(TOP)/qemu/board/deps.sh $(TOP)/Makefile
	$(call step,DEPS,$(HOST_PACKAGES) $(ARM64_PACKAGES):arm64)
	$(Q)mkdir -p $(O)
	$(Q)$(TOP)/qemu/board/deps.sh $(HOST_PACKAGES) -- $(ARM64_PACKAGES)
	$(Q)touch $@

deps: $(O)/.stamp_deps

# ---------------------------------------------------------------- kernel tree
# The tree is a git repository whose baseline is one commit of every file
# as loose objects; gc.auto 0, or the series' git am starts a repack of
# them in the background (minutes of a core while the kernel builds).
$(O)/.stamp_unpacked: | $(O)/.stamp_deps
	$(call step,UNPACK,$(KERNEL_TARBALL))
	$(Q)mkdir -p $(O)/ccache-bin
	$(Q)ln -sf $$(command -v ccache) $(O)/ccache-bin/$(CROSS_COMPILE)gcc
	$(Q)rm -rf $(KSRC) $(KSRC).tmp && mkdir -p $(KSRC).tmp
	$(Q)tar -xJf $(KERNEL_TARBALL) -C $(KSRC).tmp --strip-components=1
	$(Q)sed -i '/^# Debian packaging: ignore everything/,$$d' $(KSRC).tmp/.gitignore
	$(Q)cd $(KSRC).tmp && git init -q -b master && \
		git config gc.auto 0 && \
		git -c user.name=led_pattern -c user.email=led_pattern@localhost \
			add -A && \
		git -c user.name=led_pattern -c user.email=led_pattern@localhost \
			commit -q -m 'Debian linux-source-$(BASE) baseline' && \
		git tag baseline
	$(Q)mv $(KSRC).tmp $(KSRC)
	$(Q)touch $@

# A build directory made for another kernel (the 6.1 series used build/
# too) would have the series applied to the wrong tree: say so instead.
TREE_BASE := $(shell git -C $(KSRC) log -1 --format=%s baseline 2>/dev/null)
ifneq ($(TREE_BASE),)
ifneq ($(TREE_BASE),Debian linux-source-$(BASE) baseline)
ifeq ($(filter clean,$(MAKECMDGOALS)),)
$(error $(O)/linux is a tree of another kernel ($(TREE_BASE)): make clean, or O=another directory)
endif
endif
endif

# Re-apply series/ onto the baseline whenever a patch changes.  Refuses to
# throw away work: uncommitted changes, or commits that `make export` has
# not written back to series/.
$(O)/.stamp_patched: $(O)/.stamp_unpacked $(SERIES) $(PATCHES) $(TOP)/qemu/series-tools/apply-series.sh
	$(call step,PATCH,$(SERIES_DIR)/ onto $(KSRC))
	$(Q)$(TOP)/qemu/series-tools/apply-series.sh $(KSRC) $(TOP)/$(SERIES_DIR) $@

tree: $(O)/.stamp_patched

export: $(O)/.stamp_unpacked
	$(call step,EXPORT,$(KSRC) to $(SERIES_DIR)/)
	$(Q)$(TOP)/qemu/series-tools/export-series.sh $(KSRC) $(TOP)/$(SERIES_DIR) $(O)/.stamp_patched

# ---------------------------------------------------------------- kernel
define kernel_config
$(1)/.config: $(O)/.stamp_patched $(2) $(TOP)/qemu/board/merge-config.sh
	$$(call step,CONFIG,$(1))
	$$(Q)mkdir -p $(1)
	$$(Q)$(TOP)/qemu/board/merge-config.sh '$$(call KMAKE,$(1))' $(KSRC) $(1) $(2)
endef

KCONF_DEBUG := $(KCONF) $(TOP)/qemu/board/kernel-debug.config
$(eval $(call kernel_config,$(O)/kbuild,$(KCONF)))
$(eval $(call kernel_config,$(O)/kbuild-debug,$(KCONF_DEBUG)))

# kbuild knows what changed in $(KSRC): always ask it.
$(O)/Image: $(O)/kbuild/.config FORCE
	$(call step,KERNEL,$@)
	$(Q)+$(call KMAKE,$(O)/kbuild) -s Image
	$(Q)cmp -s $(O)/kbuild/arch/arm64/boot/Image $@ || \
		cp $(O)/kbuild/arch/arm64/boot/Image $@

$(O)/Image-debug: $(O)/kbuild-debug/.config FORCE
	$(call step,KERNEL,$@)
	$(Q)+$(call KMAKE,$(O)/kbuild-debug) -s Image
	$(Q)cmp -s $(O)/kbuild-debug/arch/arm64/boot/Image $@ || \
		cp $(O)/kbuild-debug/arch/arm64/boot/Image $@

kernel: $(O)/Image
kernel-debug: $(O)/Image-debug

# ---------------------------------------------------------------- board
# QEMU's own tree for the exact machine options we boot with, one per CPU
# count; board.dts includes it.
QEMU_MACHINE = -M virt,memory-backend=mem -cpu cortex-a53 -m 256 -smp $(1) \
	-object memory-backend-memfd,id=mem,size=256M,share=on -nic none \
	-display none
$(O)/smp%/virt.dts: $(TOP)/qemu/board/dts-labels.awk | $(O)/.stamp_deps
	$(call step,DUMPDTB,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(QEMU) $(call QEMU_MACHINE,$*) -machine dumpdtb=$(@D)/virt.dtb \
		>/dev/null 2>&1
	$(Q)dtc -q -I dtb -O dts -o $(@D)/virt.raw.dts $(@D)/virt.dtb
	$(Q)awk -f $(TOP)/qemu/board/dts-labels.awk $(@D)/virt.raw.dts $(@D)/virt.raw.dts > $@

# As kbuild does: cpp for the dt-bindings headers, then dtc, which finds
# the /include/d virt.dts in $(O)/smpN.  $(call dts_to_dtb,NAME) makes
# $(O)/NAME-smpN.dtb from its first prerequisite.
define dts_to_dtb
	$(call step,DTC,$@)
	$(Q)cpp -nostdinc -I $(KSRC)/scripts/dtc/include-prefixes -undef \
		-D__DTS__ -x assembler-with-cpp -P $< -o $(O)/smp$*/$(1).pp.dts
	$(Q)dtc -I dts -O dtb -i $(O)/smp$* -o $@ $(O)/smp$*/$(1).pp.dts
endef

$(O)/board-smp%.dtb: $(TOP)/dts/board.dts $(O)/smp%/virt.dts $(O)/.stamp_unpacked
	$(call dts_to_dtb,board)

# make bench's board: the family board with mainline's
# leds-group-multicolor as a peer (dts/bench.dts)
$(O)/bench-smp%.dtb: $(TOP)/dts/bench.dts $(TOP)/dts/family.dts $(TOP)/dts/board.dts \
		$(O)/smp%/virt.dts $(O)/.stamp_unpacked
	$(call dts_to_dtb,bench)

# the board with an LP5569 and an LP8501 beside the LP5523s
# (dts/family.dts; boot.sh --board family)
$(O)/family-smp%.dtb: $(TOP)/dts/family.dts $(TOP)/dts/board.dts $(O)/smp%/virt.dts \
		$(O)/.stamp_unpacked
	$(call dts_to_dtb,family)

dtb: $(O)/board-smp1.dtb $(O)/board-smp2.dtb $(O)/family-smp1.dtb $(O)/family-smp2.dtb

# ---------------------------------------------------------------- userland
$(O)/busybox/bin/busybox: | $(O)/.stamp_deps
	$(call step,FETCH,busybox-static:arm64)
	$(Q)rm -rf $(O)/debs && mkdir -p $(O)/debs $(O)/busybox
	$(Q)cd $(O)/debs && apt-get download -q busybox-static:arm64 >$(O)/debs/apt.log 2>&1 || \
		{ cat $(O)/debs/apt.log; echo 'apt-get download busybox-static:arm64 failed'; exit 1; }
	$(Q)dpkg-deb -x $(O)/debs/busybox-static_*_arm64.deb $(O)/busybox
	$(Q)test -x $@ && touch $@

# mkinitramfs.sh copies the clients' programs and the libraries that
# `readelf -d` says they need.
$(O)/clients/.stamp_clients: | $(O)/.stamp_deps
	$(call step,FETCH,$(ARM64_CLIENTS:%=%:arm64))
	$(Q)rm -rf $(O)/clients $(O)/clients-debs && mkdir -p $(O)/clients $(O)/clients-debs
	$(Q)cd $(O)/clients-debs && apt-get download -q $(ARM64_CLIENTS:%=%:arm64) \
		>$(O)/clients-debs/apt.log 2>&1 || { cat $(O)/clients-debs/apt.log; \
		echo 'apt-get download $(ARM64_CLIENTS:%=%:arm64) failed'; exit 1; }
	$(Q)for d in $(O)/clients-debs/*.deb; do dpkg-deb -x $$d $(O)/clients || exit 1; done
	$(Q)touch $@

# Small static aarch64 programs the guest tests run (guest-tests/helpers/
# *.c, e.g. the sysfs fuzzer), in /usr/bin on the board.
GUEST_HELPERS := $(patsubst $(TOP)/guest-tests/helpers/%.c,$(O)/guest-helpers/%, \
	$(wildcard $(TOP)/guest-tests/helpers/*.c))
$(O)/guest-helpers/%: $(TOP)/guest-tests/helpers/%.c | $(O)/.stamp_deps
	$(call step,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CROSS_COMPILE)gcc -static -O2 -Wall -Wextra -Werror -pthread -o $@ $<

GUEST_FILES := $(shell find $(TOP)/guest-tests $(TOP)/demo -type f 2>/dev/null) \
	$(TOP)/qemu/board/init $(TOP)/README.md $(wildcard $(TOP)/Documentation/*.md)
$(O)/initramfs.cpio.gz: $(O)/busybox/bin/busybox $(O)/clients/.stamp_clients $(GUEST_FILES) \
		$(GUEST_HELPERS) $(TOP)/qemu/board/mkinitramfs.sh
	$(call step,CPIO,$@)
	$(Q)GUEST_HELPERS="$(GUEST_HELPERS)" $(TOP)/qemu/board/mkinitramfs.sh \
		$(O)/busybox/bin/busybox $(TOP) $(O)/rootfs $@ $(O)/clients

initramfs: $(O)/initramfs.cpio.gz

# ---------------------------------------------------------------- emulator
LIBVHOST := $(O)/qemu-src/subprojects/libvhost-user
$(O)/.stamp_qemu_src: | $(O)/.stamp_deps
	$(call step,FETCH,qemu source package: libvhost-user)
	$(Q)rm -rf $(O)/qemu-src $(O)/qemu-dl && mkdir -p $(O)/qemu-src $(O)/qemu-dl
	$(Q)cd $(O)/qemu-dl && apt-get source -q --download-only qemu >/dev/null 2>&1
	$(Q)tar -xJf $(O)/qemu-dl/qemu_*.orig.tar.xz -C $(O)/qemu-src \
		--strip-components=1 --wildcards '*/subprojects/libvhost-user' \
		'*/include/qemu' '*/include/standard-headers'
	$(Q)test -f $(LIBVHOST)/libvhost-user.c && touch $@

$(O)/emu/lp5523-emu: $(O)/.stamp_qemu_src FORCE
	$(Q)+$(MAKE) -s -C $(TOP)/qemu/lp5523-emu O=$(O)/emu QEMU_SRC=$(O)/qemu-src $@

emu: $(O)/emu/lp5523-emu

# ---------------------------------------------------------------- boot
# IMAGE=path boots another kernel (e.g. one built from a worktree).
IMAGE ?= $(O)/Image
BOOT_DEPS := $(IMAGE) $(O)/board-smp1.dtb $(O)/board-smp2.dtb \
	$(O)/family-smp1.dtb $(O)/family-smp2.dtb \
	$(O)/initramfs.cpio.gz $(O)/emu/lp5523-emu $(O)/board.cmdline
# what boot.sh adds to the kernel command line for this base, also when
# the guest scripts are run by hand on this build directory
$(O)/board.cmdline: $(TOP)/Makefile
	$(Q)mkdir -p $(@D)
	$(Q)echo '$(BOARD_CMDLINE)' > $@
# GUEST_OUT= and RESULTS= let several boots share one build directory.
GUEST_OUT ?= $(O)/guest
# BOARD=family: the board with an LP5569 and an LP8501 (dts/family.dts)
BOOT := $(TOP)/qemu/board/boot.sh --build $(O) --kernel $(IMAGE) --smp $(SMP) \
	$(if $(BOARD),--board $(BOARD))

run: $(BOOT_DEPS)
	$(Q)$(BOOT) --mode shell --view

guest: $(BOOT_DEPS)
	$(if $(SCRIPT),,$(error Error: set SCRIPT=file to use guest))
	$(Q)$(BOOT) --mode script --script $(SCRIPT) --out $(GUEST_OUT) \
		$(if $(EMU_ARGS),--emu-args "$(EMU_ARGS)")

# The scenes `make run` offers, unattended: no terminal needed (CI logs).
demo: $(BOOT_DEPS)
	$(Q)$(BOOT) --mode script --script $(TOP)/demo/demo --out $(O)/demo
	$(Q)awk 'NF == 3 && $$1 ~ /^[0-9]+$$/ { n[$$2]++ } END { \
		split("0x32 0x33 0x34 0x35", chip, " "); \
		printf "demo: changes of the chips'"'"' outputs on the timeline:"; \
		for (o = 1; o <= 36; o++) if (n[o]) printf " %sD%d %d", \
			(o > 9 ? chip[int((o - 1) / 9) + 1] ":" : ""), (o - 1) % 9 + 1, n[o]; \
		print "" }' \
		$(O)/demo/timeline.txt

# ---------------------------------------------------------------- tests
# Host suites first (the emulator's own tests, checkpatch on the series),
# then the board: 1 CPU and 2 CPUs on the normal kernel, 2 CPUs on the
# debug kernel (lockdep, KASAN, kmemleak, UBSAN).  DEBUG=0 skips the last.
DEBUG ?= 1
# arm32.ktap and bisect.ktap are make check-series' (beside the first boot
# with CHECK_SERIES=1; not in CI): counted when made in this run, or when
# check-series.id says they were made from series/ and the tools as they
# are now, so an earlier series' results never count as this run's.
HOST_KTAP := $(O)/emulator.ktap $(O)/emulator-plants.ktap $(O)/compiler.ktap \
	$(O)/checkpatch.ktap $(O)/dt-schema.ktap $(O)/static.ktap $(O)/dt-static.ktap
SERIES_ID = $(shell cat $(SERIES) $(PATCHES) $(TOP)/qemu/series-tools/*.sh $(KCONF) \
	2>/dev/null | sha1sum | cut -c1-40)
CHECK = $(TOP)/guest-tests/run-checks.sh --build $(O) --expected $(EXPECTED) $(if $(ONLY),--only $(ONLY)) \
	$(if $(RESULTS),--results $(RESULTS))

host-checks: $(O)/emu/lp5523-emu $(O)/.stamp_patched $(O)/board-smp2.dtb
	$(call step,CHECK,emulator host tests; checkpatch --strict on $(SERIES_DIR)/; dt-schema)
	$(Q)+$(MAKE) -s -C $(TOP)/qemu/lp5523-emu O=$(O)/emu QEMU_SRC=$(O)/qemu-src check \
		> $(O)/emulator.ktap 2>&1 || true
	$(call step,CHECK,the emulator tests on bugs planted in the emulator (tests/plants.txt))
	$(Q)+$(MAKE) -s -C $(TOP)/qemu/lp5523-emu O=$(O)/emu plants \
		> $(O)/emulator-plants.ktap 2>&1 || true
	$(call step,CHECK,the LP5523 compiler of the kernel tree on the emulator chip model (100000 patterns))
	$(Q)+$(MAKE) -s -C $(TOP)/qemu/compiler-check O=$(O)/compiler-check KSRC=$(KSRC) check \
		> $(O)/compiler.ktap 2>&1 || true
	$(Q)$(TOP)/qemu/series-tools/checkpatch-series.sh $(KSRC) $(TOP)/$(SERIES_DIR) \
		> $(O)/checkpatch.ktap 2>&1 || true
	$(Q)$(TOP)/qemu/series-tools/dt-check.sh $(KSRC) $(O)/board-smp2.dtb $(O)/dt-check \
		> $(O)/dt-schema.ktap 2>&1 || true
	$(call step,CHECK,W=1 and sparse on the files $(SERIES_DIR)/ touches; kernel-doc; dtc -W; dt_binding_check)
	$(Q)$(TOP)/qemu/series-tools/static-checks.sh $(KSRC) $(TOP)/$(SERIES_DIR) $(O)/kbuild-static \
		$(KCONF) > $(O)/static.ktap 2>&1 || true
	$(Q)$(TOP)/qemu/series-tools/dt-static-checks.sh $(KSRC) $(TOP)/$(SERIES_DIR) $(O)/smp2 \
		$(O)/kbuild-static > $(O)/dt-static.ktap 2>&1 || true

# The debug kernel builds beside the normal kernel's boots (run-checks.sh:
# idle scheduling class, stopped for the suites marked lptest-alone), and
# so does make check-series with CHECK_SERIES=1:
# its results then count, made in this run.
#
# The host checks run one process at a time for minutes (the compiler
# check, checkpatch, dt-validate): beside them the board's kernel builds,
# so its first minutes take the core they leave (about 2 minutes of
# make check from an empty compiler cache).  Each writes its own files;
# only the emulator, built first, is shared.
CHECK_SERIES ?= 0
check: $(O)/emu/lp5523-emu $(O)/.stamp_patched $(O)/board-smp2.dtb \
		$(if $(filter 1,$(DEBUG)),$(O)/kbuild-debug/.config)
	$(Q)$(MAKE) --no-print-directory -C $(TOP) O=$(O) host-checks & host_checks=$$!; \
	rc=0; \
	$(MAKE) --no-print-directory -C $(TOP) O=$(O) \
		$(filter-out $(O)/emu/lp5523-emu,$(BOOT_DEPS)) || rc=$$?; \
	wait $$host_checks; \
	exit $$rc
	$(Q)series=; background=; \
	if [ "$(CHECK_SERIES)" = 1 ]; then \
		rm -f $(SERIES_KTAP) $(O)/check-series.id; \
		series="$(SERIES_KTAP)"; background="$(MAKE) -C $(TOP) O=$(O) check-series"; \
	elif [ "$$(cat $(O)/check-series.id 2>/dev/null)" = "$(SERIES_ID)" ]; then \
		series="$(SERIES_KTAP)"; \
	else \
		echo "  NOTE    no make check-series results for this series: arm32, bisect not counted"; \
	fi; \
	$(CHECK) --kernel $(IMAGE) --host-results "$(HOST_KTAP) $$series" \
		$${background:+--background "$$background"} \
		$(if $(filter 1,$(DEBUG)),--debug-kernel $(O)/Image-debug \
			--debug-build "$(MAKE) -s -C $(TOP) O=$(O) kernel-debug")

check-debug: host-checks $(O)/Image-debug $(O)/board-smp1.dtb $(O)/board-smp2.dtb $(O)/board.cmdline \
		$(O)/initramfs.cpio.gz $(O)/emu/lp5523-emu
	$(Q)$(CHECK) --kernel $(O)/Image-debug --smp 2 --results $(O)/results-debug \
		--host-results "$(HOST_KTAP)"

# The series as a reviewer builds it, slower than the host checks: every
# prefix of series/ builds (a worktree, incremental, ccache), and the
# drivers build for 32-bit ARM (the N900) with W=1, whose device tree's
# lp5523 node meets the changed bindings.  About 20 min from an empty
# kbuild directory: the gate for a change to series/, not run by CI
# (Documentation/rig.md, "What CI runs").
SERIES_KTAP := $(O)/arm32.ktap $(O)/bisect.ktap
check-series: $(O)/.stamp_patched
	$(call step,CHECK,ARCH=arm W=1 and omap3-n900 dt-schema)
	$(Q)ln -sf $$(command -v ccache) $(O)/ccache-bin/arm-linux-gnueabihf-gcc
	$(Q)N900_DTB=$(N900_DTB) $(TOP)/qemu/series-tools/arm32-check.sh $(KSRC) \
		$(TOP)/$(SERIES_DIR) $(O)/kbuild-arm $(KCONF) > $(O)/arm32.ktap 2>&1 || true
	$(call step,CHECK,every prefix of $(SERIES_DIR)/ builds and links)
	$(Q)$(TOP)/qemu/series-tools/bisect-check.sh $(KSRC) $(TOP)/$(SERIES_DIR) $(O)/bisect \
		$(KCONF) > $(O)/bisect.ktap 2>&1 || true
	$(Q)echo "$(SERIES_ID)" > $(O)/check-series.id
	$(Q)awk '/^1\.\.[0-9]+$$/ { plan[FILENAME] = substr($$0, 4) + 0 } \
		/^not ok [0-9]/ { f++; n[FILENAME]++; print FILENAME ": " $$0; next } \
		/^ok [0-9].*# SKIP/ { s++; n[FILENAME]++; next } /^ok [0-9]/ { p++; n[FILENAME]++ } \
		END { for (i = 1; i < ARGC; i++) { x = ARGV[i]; \
			if (!(x in plan) || n[x] != plan[x]) { f++; \
				print x ": " n[x] + 0 " results for a plan of " (x in plan ? plan[x] : "none") } } \
		if (s) print s+0 " skipped"; print p+0 " passed, " f+0 " failed"; exit f > 0 }' \
		$(SERIES_KTAP)

bench: $(BOOT_DEPS) $(O)/bench-smp$(SMP).dtb
	$(Q)$(TOP)/guest-tests/run-bench.sh --build $(O) --kernel $(IMAGE) --smp $(SMP) \
		--dtb $(O)/bench-smp$(SMP).dtb

# Charts of the last bench run's timeline (gnuplot); a bench run first
# when there is none.
$(O)/bench/timeline.txt:
	$(Q)+$(MAKE) bench
plots: $(O)/bench/timeline.txt | $(O)/.stamp_deps
	$(call step,PLOT,$(O)/bench/plots)
	$(Q)python3 $(TOP)/guest-tests/lib/plots.py $< $(O)/bench/plots

clean:
	$(Q)rm -rf $(O)
