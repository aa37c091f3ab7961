#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/mount/cpflags.pl IMG CLEAR_MASK SET_MASK - test tool: change
# ckpt_flags in both checkpoint packs of an f2fs image (head and tail
# block) and recompute their crcs, to make a "not cleanly unmounted"
# image without mounting anything.  Prints the new flags of each pack.
# Only the flags change: the pack's layout is not adjusted (with CP_UMOUNT
# the pack also holds the node summaries of the current segments; without
# it readers look for them in the SSA area), so the result is a consistent
# image only for code that reads ckpt_flags, like mount.f2fs's clean
# check.  Never use it to test fsck: a realistic unclean image is a copy
# taken while the kernel has it mounted (tests/kernel/guest/mount-check.sh).
use strict;
use warnings;

my ($img, $clear, $set) = @ARGV;
die "usage: cpflags.pl IMG CLEAR_MASK SET_MASK\n" unless defined $set;
$clear = $clear =~ /^0/ ? oct($clear) : 0 + $clear;
$set = $set =~ /^0/ ? oct($set) : 0 + $set;

# crc32, reflected 0xEDB88320, no pre/post inversion, seeded with the
# f2fs magic (as the kernel's f2fs_crc32)
my @t;
for my $i (0 .. 255) {
	my $c = $i;
	$c = ($c & 1) ? (0xEDB88320 ^ ($c >> 1)) : ($c >> 1) for 1 .. 8;
	$t[$i] = $c;
}
sub f2crc {
	my ($data) = @_;
	my $crc = 0xF2F52010;
	$crc = $t[($crc ^ $_) & 0xff] ^ ($crc >> 8) for unpack('C*', $data);
	return $crc;
}

open(my $fh, '+<:raw', $img) or die "$img: $!\n";
sub rd { my ($blk) = @_; my $b; sysseek($fh, $blk * 4096, 0); sysread($fh, $b, 4096) == 4096 or die "read $blk\n"; return $b; }
sub wr { my ($blk, $b) = @_; sysseek($fh, $blk * 4096, 0); syswrite($fh, $b) == 4096 or die "write $blk\n"; }

my $sb = substr(rd(0), 1024, 3072);
die "not f2fs\n" unless unpack('V', $sb) == 0xF2F52010;
my $cp_blkaddr = unpack('V', substr($sb, 0x4c, 4));
for my $pack (0, 1) {
	my $start = $cp_blkaddr + $pack * 512;
	my $head = rd($start);
	my $total = unpack('V', substr($head, 136, 4));
	die "pack $pack: bad size $total\n" if $total < 2 || $total > 512;
	for my $blk ($start, $start + $total - 1) {
		my $b = rd($blk);
		my $off = unpack('V', substr($b, 164, 4));
		die "pack $pack: checksum_offset $off\n" if $off < 192 || $off > 4092;
		my $flags = (unpack('V', substr($b, 132, 4)) & ~$clear) | $set;
		substr($b, 132, 4) = pack('V', $flags);
		substr($b, $off, 4) = pack('V', f2crc(substr($b, 0, $off)));
		wr($blk, $b);
		printf "pack %d block %d flags 0x%x\n", $pack, $blk, $flags if $blk == $start;
	}
}
close($fh);
