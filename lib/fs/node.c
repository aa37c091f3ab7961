// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * node.c - reading node blocks through the NAT, with footer checks.
 */
#include <errno.h>
#include "f2/errors.h"
#include "f2/fs.h"

int f2_node_verify(struct f2_fs *fs, const struct f2_node *node, uint32_t nid, uint32_t ino)
{
	uint32_t fnid = f2_le32(node->footer.nid), fino = f2_le32(node->footer.ino);

	if (fnid != nid)
		return f2_fs_fail(fs, F2_ECORRUPT, "nid %u: node footer says nid %u", nid, fnid);
	if (fino != ino)
		return f2_fs_fail(fs, F2_ECORRUPT, "nid %u: node footer says ino %u, NAT says %u",
				  nid, fino, ino);
	return 0;
}

int f2_node_read(struct f2_fs *fs, uint32_t nid, uint32_t want_ino,
		 struct f2_node *node, struct f2_nat_info *ni_out)
{
	struct f2_nat_info ni;
	int err;

	if (nid == F2_NODE_INO || nid == F2_META_INO)
		return f2_fs_fail(fs, F2_ECORRUPT, "nid %u is reserved (node/meta inode)", nid);
	if (!nid)
		return f2_fs_fail(fs, F2_ECORRUPT, "nid 0 used as a node pointer");
	err = f2_nat_lookup(fs, nid, &ni);
	if (err)
		return err;
	if (ni_out)
		*ni_out = ni;
	if (ni.blkaddr == F2_NULL_ADDR)
		return f2_fs_fail(fs, -ENOENT, "nid %u is not in use (NAT block address 0)", nid);
	if (!f2_fs_in_main(fs, ni.blkaddr))
		return f2_fs_fail(fs, F2_ERANGE, "nid %u: NAT block address %u outside the main area",
				  nid, ni.blkaddr);
	if (want_ino && ni.ino != want_ino)
		return f2_fs_fail(fs, F2_ECORRUPT, "nid %u belongs to ino %u, expected %u",
				  nid, ni.ino, want_ino);
	err = f2_fs_read_block(fs, ni.blkaddr, node);
	if (err)
		return err;
	return f2_node_verify(fs, node, nid, ni.ino);
}
