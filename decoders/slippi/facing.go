package slippi

// facing is the way a character faces at frame-port index i, for the
// stage view: post-frame 0x12, else pre-frame 0x15 (-1 left, +1 right,
// 0 in rare cases with items), which is the scene's x direction.
func (d *decoder) facing(pre, post []int32, i int) float64 {
	if off := post[i]; off > 0 && d.size[cmdPost] >= 0x15 {
		return f32(be32(d.data[off+0x12:]))
	}
	if off := pre[i]; off > 0 && d.size[cmdPre] >= 0x18 {
		return f32(be32(d.data[off+0x15:]))
	}
	return 0
}
