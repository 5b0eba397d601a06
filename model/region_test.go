package model

import "testing"

func TestRegionAtAndAcross(t *testing.T) {
	r := &Replay{Regions: []Region{
		{Span: Span{Off: 0, Len: 16}, Kind: "user data header"},
		{Span: Span{Off: 16, Len: 100}, Kind: "sector", Link: Span{Stream: "m", Off: 0, Len: 400}},
		{Span: Span{Off: 116, Len: 50}, Kind: "sector", Link: Span{Stream: "m", Off: 400, Len: 50}, Stored: true},
		{Span: Span{Off: 200, Len: 16}, Kind: "hash table"},
		// a damaged archive's sector that runs over the table after it
		{Span: Span{Off: 210, Len: 40}, Kind: "sector"},
	}}
	for _, tt := range []struct {
		stream string
		off    int64
		want   int
	}{
		{"", 0, 0}, {"", 15, 0}, {"", 16, 1}, {"", 115, 1}, {"", 116, 2}, {"", 170, -1},
		{"", 205, 3}, {"", 212, 4}, {"", 249, 4}, {"", 250, -1},
		{"m", 0, 1}, {"m", 399, 1}, {"m", 400, 2}, {"m", 449, 2}, {"m", 450, -1}, {"other", 0, -1},
	} {
		if got := r.RegionAt(tt.stream, tt.off); got != tt.want {
			t.Errorf("RegionAt(%q, %d) = %d, want %d", tt.stream, tt.off, got, tt.want)
		}
	}
	for _, tt := range []struct {
		region int
		stream string
		off    int64
		want   Span
	}{
		{1, "", 50, Span{Stream: "m", Off: 0, Len: 1}},    // compressed: the whole maps to the start
		{1, "m", 300, Span{Stream: "", Off: 16, Len: 1}},  // and back
		{2, "", 120, Span{Stream: "m", Off: 404, Len: 1}}, // stored: byte for byte
		{2, "m", 449, Span{Stream: "", Off: 165, Len: 1}}, // and back
	} {
		if got := r.Regions[tt.region].Across(tt.stream, tt.off); got != tt.want {
			t.Errorf("region %d Across(%q, %d) = %+v, want %+v", tt.region, tt.stream, tt.off, got, tt.want)
		}
	}
}
