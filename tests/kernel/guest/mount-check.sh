# SPDX-License-Identifier: GPL-2.0-or-later
# Guest side of tests/kernel/mount.bats (busybox sh).  util-linux mount(8)
# is staged as /bin/ulmount (so the /init's own busybox mounts are not
# disturbed), our helper as /bin/mount.f2fs with a /sbin/mount.f2fs link
# where mount(8) looks for helpers, our fsck.f2fs as /bin/fsck.f2fs (next
# to the helper, where it looks first), loop.ko as /guest/loop.ko.
# /dev/vda: good f2fs (label and UUID in /guest/ids), /dev/vdb: f2fs with
# a bad superblock, /dev/vdc: populated by our mkfs --root (/hello,
# /seq = `seq 1 20000`, /d/inner) with its backup superblock damaged
# (fsck -p repairs it), /dev/vdd: the same volume with the inode of /seq
# damaged and the checkpoint asking for fsck (fsck -p cannot repair it).
# Prints "<check> <fact>" lines, then DONE.

read -r UUID LABEL </guest/ids
mkdir -p /run/mount /etc
ln -s /bin/mount.f2fs /sbin/mount.f2fs
insmod /guest/loop.ko 2>/dev/null || grep -q '^loop ' /proc/modules ||
	echo "setup insmod loop failed"
[ -c /dev/loop-control ] && echo "setup loop-control ok"

mounted() { grep -q " /mnt " /proc/mounts; }
# attached loop devices, one "loopN:file" per line
loops() {
	for b in /sys/block/loop*/loop/backing_file; do
		[ -r "$b" ] && echo "$(basename "$(dirname "$(dirname "$b")")"):$(cat "$b")"
	done
}
# run: CHECK CMD... - "CHECK rc=N", output kept in /tmp/CHECK.out
run() {
	local name=$1
	shift
	"$@" >"/tmp/$name.out" 2>&1
	echo "$name rc=$?"
}
has() { grep -q -- "$2" "/tmp/$1.out" && echo "$1 says $3"; }
unmount() { umount /mnt 2>/dev/null; mounted && echo "$1 still mounted"; }

echo "features $(ls /sys/fs/f2fs/features 2>/dev/null | tr '\n' ',')"

# 1. a device, through mount(8)
run dev ulmount -v -t f2fs /dev/vda /mnt
has dev "mount.f2fs: mounted /dev/vda on /mnt" helper
grep -q "^/dev/vda /mnt f2fs " /proc/mounts && echo "dev in-proc-mounts"
grep -q "not readable" /tmp/dev.out || echo "dev kernel-features-read"
echo hello >/mnt/hello && sync && echo "dev write ok"
unmount dev

# 2. UUID= and LABEL=: through mount(8) and given to the helper itself
run uuid ulmount -v -t f2fs "UUID=$UUID" /mnt
has uuid "mount.f2fs: mounted /dev/vda on /mnt" helper
grep -q "^/dev/vda /mnt f2fs " /proc/mounts && echo "uuid in-proc-mounts"
unmount uuid
run uuidh mount.f2fs -v "UUID=$UUID" /mnt
has uuidh "UUID=$UUID is /dev/vda" resolved
grep -q "^/dev/vda /mnt f2fs " /proc/mounts && echo "uuidh in-proc-mounts"
unmount uuidh
run label ulmount -v -t f2fs "LABEL=$LABEL" /mnt
grep -q "^/dev/vda /mnt f2fs " /proc/mounts && echo "label in-proc-mounts"
unmount label
run labelh mount.f2fs -v "LABEL=$LABEL" /mnt
has labelh "LABEL=$LABEL is /dev/vda" resolved
grep -q "^/dev/vda /mnt f2fs " /proc/mounts && echo "labelh in-proc-mounts"
unmount labelh

# 3. options pass through: ro (a flag) and f2fs options (data)
run ro ulmount -t f2fs -o ro,noatime,background_gc=off /dev/vda /mnt
line=$(grep " /mnt " /proc/mounts)
echo "ro line $line"
case "$line" in *" f2fs ro,"*) echo "ro is-ro" ;; esac
case "$line" in *noatime*) echo "ro noatime" ;; esac
case "$line" in *background_gc=off*) echo "ro background_gc=off" ;; esac
touch /mnt/x 2>/dev/null || echo "ro write refused"
unmount ro

# remount through the helper: rw -> ro
mount.f2fs /dev/vda /mnt
run remount mount.f2fs -o remount,ro /dev/vda /mnt
case "$(grep " /mnt " /proc/mounts)" in *" f2fs ro,"*) echo "remount is-ro" ;; esac
unmount remount

# 4. refusals: unknown option, bad superblock; nothing mounted
run badopt ulmount -t f2fs -o noatime,bogus_opt /dev/vda /mnt
has badopt "unknown option 'bogus_opt'" named
mounted || echo "badopt nothing-mounted"
run badsb ulmount -t f2fs /dev/vdb /mnt
has badsb "bad f2fs superblock" reason
mounted || echo "badsb nothing-mounted"
run badsbh mount.f2fs /dev/vdb /mnt
mounted || echo "badsbh nothing-mounted"

# 5. an image file in the guest's tmpfs
truncate -s 64M /tmp/img.f2fs
mkfs.f2fs -q -l imglabel /tmp/img.f2fs >/tmp/mkfs.out 2>&1 || echo "img mkfs failed"
run img mount.f2fs -v /tmp/img.f2fs /mnt
has img "attached /tmp/img.f2fs to /dev/loop" attached
dev=$(awk '$2 == "/mnt" { print $1 }' /proc/mounts)
case "$dev" in /dev/loop*) echo "img on-loop" ;; esac
echo imgdata >/mnt/f && sync
loops | grep -q ":/tmp/img.f2fs$" && echo "img loop-attached"
unmount img
loops | grep -q ":/tmp/img.f2fs$" || echo "img loop-released-after-umount"
run imgm ulmount -v -t f2fs /tmp/img.f2fs /mnt
grep -q "^/dev/loop[0-9]* /mnt f2fs " /proc/mounts && echo "imgm on-loop"
has imgm "mount.f2fs: mounted" helper
# for the record: what mount(8) handed the helper (a file or its own loop)
echo "imgm helper-saw $(grep -E 'attached|mount\(' /tmp/imgm.out | tr '\n' ' ')"
[ "$(cat /mnt/f 2>/dev/null)" = imgdata ] && echo "imgm data ok"
unmount imgm
sleep 1
loops | grep -q ":/tmp/img.f2fs$" || echo "imgm loop-released-after-umount"

# ro on an image file: the loop device itself is read-only
run imgro mount.f2fs -o ro /tmp/img.f2fs /mnt
dev=$(awk '$2 == "/mnt" { print $1 }' /proc/mounts)
[ -n "$dev" ] && [ "$(cat "/sys/block/${dev#/dev/}/ro" 2>/dev/null)" = 1 ] && echo "imgro loop-ro"
unmount imgro

# 6. the loop device is released when mount(2) fails (norecovery needs ro)
run loopfail mount.f2fs -v -o norecovery /tmp/img.f2fs /mnt
has loopfail "attached /tmp/img.f2fs to /dev/loop" attached
has loopfail "detaching /dev/loop" detaching
mounted || echo "loopfail nothing-mounted"
loops | grep -q ":/tmp/img.f2fs$" || echo "loopfail loop-released"
echo "loopfail loops [$(loops | tr '\n' ' ')]"

# 7. the fsck step with our fsck.f2fs
# a) a dirty image: a copy taken while the kernel had it mounted (its
#    checkpoint lacks CP_UMOUNT); fsck -p checks it fully, then it mounts
truncate -s 64M /tmp/d.f2fs
mkfs.f2fs -q /tmp/d.f2fs >/dev/null 2>&1
mount.f2fs /tmp/d.f2fs /mnt && echo dirtydata >/mnt/g && sync &&
	cp /tmp/d.f2fs /tmp/dirty.f2fs && cp /tmp/d.f2fs /tmp/dirty2.f2fs &&
	echo "fsck made-dirty-copy"
unmount dirty
run dirtyref mount.f2fs -v -o errors=refuse /tmp/dirty.f2fs /mnt
has dirtyref "not unmounted cleanly" dirty
mounted || echo "dirtyref nothing-mounted"
run dirtyfsck mount.f2fs -v -o fsck /tmp/dirty.f2fs /mnt
has dirtyfsck "running /bin/fsck.f2fs -p /tmp/dirty.f2fs (option fsck)" ran
has dirtyfsck "/bin/fsck.f2fs exited [01]: " fsck-ok
echo "dirtyfsck fsck-said [$(grep -E '^0x|dirty.f2fs: ' /tmp/dirtyfsck.out | tr '\n' ' ')]"
mounted && echo "dirtyfsck mounted"
[ "$(cat /mnt/g 2>/dev/null)" = dirtydata ] && echo "dirtyfsck data ok"
unmount dirtyfsck
#    errors=fsck, through mount(8) (which may hand the helper its own loop)
run dirtyerr ulmount -v -t f2fs -o errors=fsck /tmp/dirty2.f2fs /mnt
has dirtyerr "(errors=fsck with a checkpoint that is not clean)" ran
has dirtyerr "/bin/fsck.f2fs exited [01]: " fsck-ok
mounted && echo "dirtyerr mounted"
[ "$(cat /mnt/g 2>/dev/null)" = dirtydata ] && echo "dirtyerr data ok"
unmount dirtyerr
sleep 1
loops | grep -q ":/tmp/dirty2.f2fs$" || echo "dirtyerr loop-released-after-umount"

# b) /dev/vdc, backup superblock damaged: -o fsck repairs it, then mounts
run sbfix ulmount -v -t f2fs -o fsck /dev/vdc /mnt
has sbfix "running /bin/fsck.f2fs -p /dev/vdc (option fsck)" ran
has sbfix "SB_BACKUP_BAD" found
has sbfix "backup superblock from the primary: yes (preen)" preened
has sbfix "/bin/fsck.f2fs exited 1: errors corrected" corrected
grep -q "^/dev/vdc /mnt f2fs " /proc/mounts && echo "sbfix mounted"
[ "$(cat /mnt/hello 2>/dev/null)" = hello ] && echo "sbfix hello ok"
[ "$(md5sum </mnt/seq 2>/dev/null)" = "$(seq 1 20000 | md5sum)" ] && echo "sbfix seq ok"
[ "$(cat /mnt/d/inner 2>/dev/null)" = inner ] && echo "sbfix inner ok"
unmount sbfix
[ "$(dd if=/dev/vdc bs=1024 skip=1 count=3 2>/dev/null | md5sum)" = \
  "$(dd if=/dev/vdc bs=1024 skip=5 count=3 2>/dev/null | md5sum)" ] && echo "sbfix copies-equal"

# c) /dev/vdd, damage -p cannot repair: refused with fsck's exit 4, by
#    -o fsck and by errors=fsck (its checkpoint asks for fsck); nothing
#    mounted; as an image file, no loop device is left behind
run broken ulmount -v -t f2fs -o fsck /dev/vdd /mnt
has broken "DENT_BAD_INODE" found
has broken "failed (exit 4): errors left uncorrected; not mounting" refused
mounted || echo "broken nothing-mounted"
run brokenerr ulmount -t f2fs -o errors=fsck /dev/vdd /mnt
has brokenerr "failed (exit 4): errors left uncorrected; not mounting" refused
mounted || echo "brokenerr nothing-mounted"
dd if=/dev/vdd of=/tmp/broken.f2fs bs=1M 2>/dev/null || echo "brokenimg copy failed"
run brokenimg mount.f2fs -v -o fsck /tmp/broken.f2fs /mnt
has brokenimg "failed (exit 4): errors left uncorrected; not mounting" refused
mounted || echo "brokenimg nothing-mounted"
loops | grep -q ":/tmp/broken.f2fs$" || echo "brokenimg no-loop"
run brokenimgm ulmount -v -t f2fs -o fsck /tmp/broken.f2fs /mnt
has brokenimgm "failed (exit 4): errors left uncorrected; not mounting" refused
mounted || echo "brokenimgm nothing-mounted"
sleep 1
loops | grep -q ":/tmp/broken.f2fs$" || echo "brokenimgm no-loop"
echo "brokenimgm helper-saw $(grep -E 'running' /tmp/brokenimgm.out | tr '\n' ' ')"

# d) errors=fsck leaves a clean device alone
run errfsck ulmount -v -t f2fs -o errors=fsck /dev/vda /mnt
grep -q "running" /tmp/errfsck.out || echo "errfsck clean-not-checked"
unmount errfsck

# 8. /etc/mtab: written when it is a regular file
: >/etc/mtab
run mtab mount.f2fs -o noatime /dev/vda /mnt
echo "mtab [$(cat /etc/mtab)]"
unmount mtab
rm -f /etc/mtab

echo "final mounts [$(grep -c ' /mnt ' /proc/mounts)] loops [$(loops | tr '\n' ' ')]"
echo DONE
