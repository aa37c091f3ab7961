# SPDX-License-Identifier: GPL-2.0-or-later
# make.sh - boot 1 of tests/recovery (busybox sh in the guest): one f2fs
# per virtio disk (vda.. in SCENARIOS order, made by the reference mkfs on
# the host).  Each gets a baseline that one sync checkpoints; then every
# scenario writes and fsyncs without a checkpoint, and the guest reboots
# at once through sysrq (qemu -no-reboot exits): a power cut.
SCENARIOS="newfile append midwrite newdir many truncate unlinked inline indirect xattr dirs xnode changes"
rnd() { head -c "$1" /dev/urandom; }
# a value of $1 bytes of letter $2
val() { head -c "$1" /dev/zero | tr '\000' "$2"; }

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
base_dirs() { mkdir "$1/d1"; }
base_xnode() {
	rnd 7000 >"$1/p" && setfattr -n user.s1 -v small "$1/p" &&
		setfattr -n user.big1 -v "$(val 300 a)" "$1/p" &&
		setfattr -n user.big2 -v "$(val 300 b)" "$1/p" &&
		rnd 3000 >"$1/q" && setfattr -n user.a -v one "$1/q" && setfattr -n user.b -v two "$1/q"
}
base_changes() {
	rnd $((4096 * 4000)) >"$1/m" && rnd 1048576 >"$1/h" && rnd 300000 >"$1/t2" &&
		echo "short inline text" >"$1/s"
}

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

# Directories: the driver checkpoints when a directory, or a file whose
# parent is not yet checkpointed, is fsync-ed (d3, d2/g): only files whose
# directory is checkpointed roll forward (d2/h after that checkpoint, d1/*).
# d1/e2 is fsync-ed before d1/e1 though created after it: the recovery
# must keep every inode number.  The hard link and d3/sub are not logged.
run_dirs() {
	mkdir "$1/d3" && rnd 4000 >"$1/d3/x" && fsyncw "$1/d3/x" "$1/d3" &&
		mkdir "$1/d2" && rnd 3000 >"$1/d2/g" && fsyncw "$1/d2/g" &&
		rnd 6000 >"$1/d2/h" && fsyncw "$1/d2/h" &&
		rnd 9000 >"$1/d1/a" && fsyncw "$1/d1/a" &&
		rnd 100 >"$1/d1/e1" && rnd 200 >"$1/d1/e2" && fsyncw "$1/d1/e2" "$1/d1/e1" &&
		ln "$1/d1/a" "$1/d1/a2" && mkdir "$1/d3/sub" && rnd 10 >"$1/d3/sub/y"
}
# Xattr node replay: removals and additions in the inline area and the
# node; inode flags (chattr) of an existing and a new file.
run_xnode() {
	setfattr -x user.big1 "$1/p" && setfattr -n user.big3 -v "$(val 400 c)" "$1/p" &&
		fsyncw "$1/p" && setfattr -x user.a "$1/q" && chattr +Ad "$1/q" && fsyncw "$1/q" &&
		rnd 2000 >"$1/r" && setfattr -n user.r1 -v "$(val 500 d)" "$1/r" &&
		setfattr -n user.r2 -v tiny "$1/r" && chattr +d "$1/r" && fsyncw "$1/r"
}
# A compressed file (its fsync checkpoints), then: a new file whose direct
# node is allocated before the next new file's inode (the recovery must
# keep small's inode number), overwrites past the indirect-node boundary
# (in-place updates off: the chain points to new blocks), a punched hole,
# a committed file truncated, an inline file grown into blocks.
run_changes() {
	rnd 200000 >"$1/c.cz" && fsyncw "$1/c.cz" &&
		rnd 3900000 >"$1/big" && rnd 100 >"$1/small" && fsyncw "$1/big" "$1/small" &&
		dd if=/dev/urandom of="$1/m" bs=4096 seek=2000 count=8 conv=notrunc 2>/dev/null &&
		dd if=/dev/urandom of="$1/m" bs=4096 seek=3800 count=2 conv=notrunc 2>/dev/null &&
		fsyncw "$1/m" && fsyncw -p "$1/h" 40960 81920 &&
		truncate -s 10000 "$1/t2" && fsyncw "$1/t2" &&
		rnd 8000 >>"$1/s" && fsyncw "$1/s"
}
mopts() { [ "$1" = changes ] && echo ",compress_extension=cz"; }

letters=abcdefghijklmnop
i=1
for s in $SCENARIOS; do
	d=vd$(echo $letters | cut -c$i)
	mkdir -p /mnt/$s
	mount -t f2fs -o background_gc=off$(mopts $s) /dev/$d /mnt/$s || { echo "F2RF-FAIL mount $s"; exit 1; }
	# no periodic checkpoint while the scenarios run
	echo 100000 >/sys/fs/f2fs/$d/cp_interval 2>/dev/null
	[ $s = changes ] && echo 0 >/sys/fs/f2fs/$d/ipu_policy
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
