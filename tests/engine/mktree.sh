#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# mktree.sh DIR [NBIG]: a tree of every file type and size class for the
# populate tests: sizes around the inline / direct / indirect / double
# indirect boundaries, holes, a directory of NBIG entries (default 10000),
# 255-byte names, short and long symlinks, hard links across directories,
# fifo, socket, char and block devices, odd modes, owners, user/trusted/
# security xattrs (inline-sized and node-sized).  Deterministic content.
# MKTREE_NO_DIND=1 leaves out the 8 GiB sparse file (for QEMU guests).
set -euo pipefail
d=$1 nbig=${2:-10000}
mkdir -p "$d"
cd "$d"
gen() { # gen FILE SIZE SEED: deterministic bytes
	python3 - "$1" "$2" "$3" <<'PY'
import sys, hashlib
path, size, seed = sys.argv[1], int(sys.argv[2]), sys.argv[3]
with open(path, 'wb') as f:
    blk = 0
    while size > 0:
        chunk = b''.join(hashlib.sha256(f'{seed}:{blk}:{i}'.encode()).digest() for i in range(128))
        f.write(chunk[:min(size, 4096)])
        size -= 4096
        blk += 1
PY
}
mkdir -p sizes deep/a/b/c/d/e empty links special big xattr modes
for s in 0 1 100 3400 3488 3489 4095 4096 4097 8192 $((923*4096)) $((923*4096+1)) \
	 $(((923+1018)*4096)) $(((923+2036)*4096)) $(((923+2036)*4096+1)) $(((923+2036+5000)*4096+123)); do
	gen "sizes/f$s" "$s" "$s"
done
# holes: data, hole, data; a trailing hole; a block past the dind boundary
gen sizes/holes 4096 h1
truncate -s $((100*4096)) sizes/holes
gen sizes/holes.tail 8192 h2
dd if=sizes/holes.tail of=sizes/holes bs=4096 seek=200 conv=notrunc status=none
truncate -s $((300*4096)) sizes/holes
if [ -z "${MKTREE_NO_DIND:-}" ]; then	# 8 GiB apparent: not for slow guests
	truncate -s $(( (923 + 2036 + 2*1018*1018 + 7) * 4096 )) sizes/dind_sparse
	printf 'past the double-indirect boundary' |
		dd of=sizes/dind_sparse bs=4096 seek=$((923 + 2036 + 2*1018*1018 + 3)) conv=notrunc status=none
fi
truncate -s 5000 sizes/all_hole_small
truncate -s 1M sizes/all_hole
echo deep > deep/a/b/c/d/e/file
# names
long=$(printf 'n%.0s' $(seq 1 255))
echo long > "$long"
echo utf8 > 'été ünïcødé ✓'
echo spaces > 'with spaces and	tab'
# links
echo target > links/target
ln -s target links/short
ln -s "$(printf 'x/%.0s' $(seq 1 1500))end" links/long
ln -s /nonexistent/absolute links/dangling
echo hard > links/h1
ln links/h1 links/h2
ln links/h1 deep/a/h3
# specials
mkfifo special/fifo
python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])' special/sock
mknod special/null c 1 3
mknod special/big_minor b 259 70000
mknod special/big_major c 300 2
# a big directory
python3 - "$nbig" <<'PY'
import sys, os
n = int(sys.argv[1])
for i in range(n):
    name = f"big/entry-{i:06d}-" + "q" * (i % 180)
    with open(name, 'w') as f:
        if i % 97 == 0:
            f.write(f"{i}\n")
PY
# xattrs
echo x > xattr/small
setfattr -n user.one -v 1 xattr/small
setfattr -n trusted.t -v trusted-value xattr/small
setfattr -n security.s -v sec xattr/small
echo x > xattr/node
for i in $(seq 1 12); do
	setfattr -n "user.k$i" -v "$(printf 'v%.0s' $(seq 1 200))" xattr/node
done
mkdir xattr/dir
setfattr -n user.onadir -v yes xattr/dir
# modes and owners
for m in 0000 0644 4755 2755 1777 0700 0444; do
	echo "$m" > "modes/m$m"
	chmod "$m" "modes/m$m"
done
mkdir modes/sticky && chmod 1777 modes/sticky
chown 1000:1000 modes/m0644
chown 123:456 modes/m0700
chown -h 7:8 links/short
chown 65534:65534 special/fifo
