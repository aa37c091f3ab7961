# SPDX-License-Identifier: GPL-2.0-or-later
# make.sh - boot 1 of tests/recovery (busybox sh in the guest): one f2fs
# per virtio disk (vda.. in SCENARIOS order, made by the reference mkfs on
# the host).  Each gets a baseline that one sync checkpoints; then every
# scenario writes and fsyncs without a checkpoint, and the guest reboots
# at once through sysrq (qemu -no-reboot exits): a power cut.
SCENARIOS="newfile append midwrite newdir many truncate unlinked inline indirect xattr"
rnd() { head -c "$1" /dev/urandom; }

base_newfile() { :; }
base_append() { rnd 40960 >"$1/a"; }
base_midwrite() { rnd 8388608 >"$1/big"; }
base_newdir() { :; }
base_many() { :; }
base_truncate() { :; }
base_unlinked() { :; }
base_inline() { :; }
base_indirect() { :; }
base_xattr() { rnd 5000 >"$1/old"; }

run_newfile() { rnd 20000 >"$1/new" && fsyncw "$1/new"; }
run_append() { rnd 30000 >>"$1/a" && fsyncw "$1/a"; }
run_midwrite() {
	dd if=/dev/urandom of="$1/big" bs=4096 seek=700 count=16 conv=notrunc 2>/dev/null &&
		fsyncw "$1/big"
}
run_newdir() { mkdir "$1/d" && rnd 9000 >"$1/d/f" && fsyncw "$1/d/f" "$1/d"; }
run_many() { fsyncw -m "$1" 500; }
run_truncate() {
	rnd 80000 >"$1/t" && fsyncw "$1/t" && truncate -s 5000 "$1/t" && fsyncw "$1/t"
}
run_unlinked() {
	rnd 12000 >"$1/u" && fsyncw "$1/u" && rm "$1/u" && rnd 5000 >"$1/v" && fsyncw "$1/v"
}
run_inline() { echo "a few bytes of inline data" >"$1/i" && fsyncw "$1/i"; }
run_indirect() { rnd $((3100 * 4096)) >"$1/huge" && fsyncw "$1/huge"; }
run_xattr() {
	rnd 3000 >"$1/x" && setfattr -n user.color -v blue "$1/x" &&
		setfattr -n user.shape -v round "$1/x" && fsyncw "$1/x" &&
		setfattr -n user.note -v later "$1/old" && fsyncw "$1/old"
}

letters=abcdefghijklmnop
i=1
for s in $SCENARIOS; do
	d=vd$(echo $letters | cut -c$i)
	mkdir -p /mnt/$s
	mount -t f2fs -o background_gc=off /dev/$d /mnt/$s || { echo "F2RF-FAIL mount $s"; exit 1; }
	# no periodic checkpoint while the scenarios run
	echo 100000 >/sys/fs/f2fs/$d/cp_interval 2>/dev/null
	echo "baseline of $s" >/mnt/$s/keep
	base_$s /mnt/$s || { echo "F2RF-FAIL base $s"; exit 1; }
	i=$((i + 1))
done
sync
for s in $SCENARIOS; do
	run_$s /mnt/$s || echo "F2RF-FAIL run $s"
	echo "F2RF-DONE $s"
done
echo F2RF-CUT
sleep 1
echo 1 >/proc/sys/kernel/sysrq
echo b >/proc/sysrq-trigger
sleep 10
echo "F2RF-FAIL the guest did not reboot"
