#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# manifest.py DIR: the output of manifest.sh, fast (no process per file),
# for the host side of comparisons.  EXCLUDE as in manifest.sh.  Files over
# 64 MiB get a digest of their non-zero blocks instead of an md5 (so an 8 GiB
# sparse file costs its data only); manifest.sh never sees such files.
import hashlib, os, stat, sys

BIG = 64 << 20
root = sys.argv[1].encode()
excl = os.environ.get('EXCLUDE', '').encode()
paths = [b'.']
for d, dirs, files in os.walk(root):
    rel = os.path.relpath(d, root)
    base = b'.' if rel == b'.' else b'./' + rel
    for n in dirs + files:
        paths.append(base + b'/' + n)
paths.sort()
out = sys.stdout.buffer
xattrs = []
KIND = {stat.S_IFIFO: b'fifo', stat.S_IFSOCK: b'socket',
        stat.S_IFCHR: b'character special file', stat.S_IFBLK: b'block special file'}
for p in paths:
    if excl and (p == excl or p.startswith(excl + b'/')):
        continue
    full = os.path.join(root, p)
    st = os.lstat(full)
    m, perm = st.st_mode, b'%o' % (st.st_mode & 0o7777)
    own = b'%d:%d:%d' % (st.st_uid, st.st_gid, st.st_nlink)
    if stat.S_ISLNK(m):
        out.write(b'%s l %s %s\n' % (p, own, os.readlink(full)))
    elif stat.S_ISDIR(m):
        out.write(b'%s d %s:%s\n' % (p, perm, own))
    elif stat.S_ISREG(m):
        h = hashlib.md5()
        with open(full, 'rb') as f:
            if st.st_size <= BIG:
                for chunk in iter(lambda: f.read(1 << 20), b''):
                    h.update(chunk)
                digest = h.hexdigest().encode()
            else:
                # large (sparse) files: the non-zero 4 KiB blocks and their
                # indexes, read from the data extents only
                fd, off = f.fileno(), 0
                while off < st.st_size:
                    try:
                        off = os.lseek(fd, off, os.SEEK_DATA)
                    except OSError:
                        break
                    end = os.lseek(fd, off, os.SEEK_HOLE)
                    while off < end:
                        b = os.pread(fd, 4096, off)
                        if b.strip(b'\0'):
                            h.update(b'%d:' % (off // 4096) + b)
                        off += 4096
                digest = b'sparse-' + h.hexdigest().encode()
        out.write(b'%s f %s:%s:%d %s\n' % (p, perm, own, st.st_size, digest))
    else:
        out.write(b'%s o %s:%s:%s:%x:%x\n' % (p, KIND[stat.S_IFMT(m)], perm, own,
                                              os.major(st.st_rdev), os.minor(st.st_rdev)))
    try:
        names = os.listxattr(full, follow_symlinks=False)
    except OSError:
        names = []
    for n in names:
        v = os.getxattr(full, n, follow_symlinks=False)
        xattrs.append(b'%s %s=0x%s' % (p, n.encode(), v.hex().encode()))
out.write(b'XATTRS\n')
for l in sorted(xattrs):
    out.write(l + b'\n')
