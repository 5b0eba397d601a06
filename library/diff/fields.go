package diff

import (
	"math"
	"strconv"
	"time"

	"rewind/model"
)

// maxDepth bounds how deep field groups are compared, so a hostile file's
// nesting cannot make a comparison recurse without end (the model's
// contract keeps real fields far shallower).
const maxDepth = 16

// compareFields compares two field lists by key, recursively, and calls
// differ with the dotted path and both fields (nil for the side that lacks
// it) of every leaf that differs. Fields with the same key are matched in
// order (the nth "port" with the nth), and their path carries the place
// when a key repeats ("ports[1].x"). Spans are never compared: the same
// value sits at other offsets in another file.
func compareFields(prefix string, fa, fb []model.Field, depth int, differ func(path string, a, b *model.Field)) {
	if depth > maxDepth {
		return
	}
	// the common case: the same keys in the same order
	if sameKeys(fa, fb) {
		for i := range fa {
			compareField(prefix, fa, i, &fa[i], &fb[i], depth, differ)
		}
		return
	}
	usedB := make([]bool, len(fb))
	for i := range fa {
		j := nth(fb, fa[i].Key, occurrence(fa, i))
		if j < 0 {
			differ(join(prefix, fa[i].Key, fa, i), &fa[i], nil)
			continue
		}
		usedB[j] = true
		compareField(prefix, fa, i, &fa[i], &fb[j], depth, differ)
	}
	for j := range fb {
		if !usedB[j] {
			differ(join(prefix, fb[j].Key, fb, j), nil, &fb[j])
		}
	}
}

// compareField compares a, which is fs[i] of a list under prefix, with b.
// The path is made only for a group or a difference: a walk over a long
// game compares millions of equal fields.
func compareField(prefix string, fs []model.Field, i int, a, b *model.Field, depth int, differ func(path string, a, b *model.Field)) {
	if len(a.Fields) > 0 || len(b.Fields) > 0 {
		path := join(prefix, a.Key, fs, i)
		if (a.Value != nil || b.Value != nil) && !Equal(a.Value, b.Value) {
			differ(path, a, b)
		}
		compareFields(path, a.Fields, b.Fields, depth+1, differ)
		return
	}
	if !Equal(a.Value, b.Value) || (a.Value == nil && b.Value == nil && a.Name != b.Name) {
		differ(join(prefix, a.Key, fs, i), a, b)
	}
}

func sameKeys(fa, fb []model.Field) bool {
	if len(fa) != len(fb) {
		return false
	}
	for i := range fa {
		if fa[i].Key != fb[i].Key {
			return false
		}
	}
	return true
}

// occurrence is how many fields before i have fs[i]'s key.
func occurrence(fs []model.Field, i int) int {
	k := 0
	for j := 0; j < i; j++ {
		if fs[j].Key == fs[i].Key {
			k++
		}
	}
	return k
}

// nth is the index of the kth field with the key, -1 when there is none.
func nth(fs []model.Field, key string, k int) int {
	for j := range fs {
		if fs[j].Key == key {
			if k == 0 {
				return j
			}
			k--
		}
	}
	return -1
}

// join makes the path of fs[i] under prefix, with its place among the
// fields of the same key when the key repeats.
func join(prefix, key string, fs []model.Field, i int) string {
	repeats := false
	for j := range fs {
		if j != i && fs[j].Key == key {
			repeats = true
			break
		}
	}
	if repeats {
		key += "[" + strconv.Itoa(occurrence(fs, i)) + "]"
	}
	if prefix == "" {
		return key
	}
	return prefix + "." + key
}

// leaf is the last key of a dotted path.
func leaf(path string) string {
	for i := len(path) - 1; i >= 0; i-- {
		if path[i] == '.' {
			return path[i+1:]
		}
	}
	return path
}

// Equal reports whether two field values are the same value
// (model.SameValue).
func Equal(a, b any) bool { return model.SameValue(a, b) }

// number reads a value as a float64 when it is a number (a duration in
// seconds), for deltas.
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case int:
		return float64(x), true
	case int8:
		return float64(x), true
	case int16:
		return float64(x), true
	case int32:
		return float64(x), true
	case int64:
		return float64(x), true
	case uint:
		return float64(x), true
	case uint8:
		return float64(x), true
	case uint16:
		return float64(x), true
	case uint32:
		return float64(x), true
	case uint64:
		return float64(x), true
	case float32:
		return float64(x), !math.IsNaN(float64(x)) && !math.IsInf(float64(x), 0)
	case float64:
		return x, !math.IsNaN(x) && !math.IsInf(x, 0)
	case time.Duration:
		return x.Seconds(), true
	}
	return 0, false
}
