package decodetest

import (
	"fmt"
	"math"
	"reflect"

	"rewind/model"
)

// Diff compares two values as reflect.DeepEqual does, except that a NaN
// equals a NaN (stats divide by zero where a player never acted, and
// garbage fields of real replays hold NaNs), and functions are not
// compared. It returns the path to the first difference, "" when there is
// none.
func Diff(a, b any) string {
	return diff("", reflect.ValueOf(a), reflect.ValueOf(b), 0)
}

func diff(path string, a, b reflect.Value, depth int) string {
	if !a.IsValid() || !b.IsValid() {
		if a.IsValid() != b.IsValid() {
			return path + ": one is nil"
		}
		return ""
	}
	if a.Type() != b.Type() {
		return fmt.Sprintf("%s: %s against %s", path, a.Type(), b.Type())
	}
	if depth > 100 {
		return path + ": nested too deep to compare"
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return path + ": one is nil"
			}
			return ""
		}
		if a.Kind() == reflect.Pointer && a.Pointer() == b.Pointer() {
			return ""
		}
		return diff(path, a.Elem(), b.Elem(), depth+1)
	case reflect.Struct:
		for i := range a.NumField() {
			if s := diff(path+"."+a.Type().Field(i).Name, a.Field(i), b.Field(i), depth+1); s != "" {
				return s
			}
		}
	case reflect.Slice, reflect.Array:
		if a.Kind() == reflect.Slice && a.IsNil() != b.IsNil() && a.Len()+b.Len() > 0 {
			return path + ": one is nil"
		}
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s: %d items against %d", path, a.Len(), b.Len())
		}
		for i := range a.Len() {
			if s := diff(fmt.Sprintf("%s[%d]", path, i), a.Index(i), b.Index(i), depth+1); s != "" {
				return s
			}
		}
	case reflect.Map:
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s: %d keys against %d", path, a.Len(), b.Len())
		}
		for _, k := range a.MapKeys() {
			v := b.MapIndex(k)
			if !v.IsValid() {
				return fmt.Sprintf("%s[%v]: missing", path, k)
			}
			if s := diff(fmt.Sprintf("%s[%v]", path, k), a.MapIndex(k), v, depth+1); s != "" {
				return s
			}
		}
	case reflect.Float32, reflect.Float64:
		x, y := a.Float(), b.Float()
		if x != y && !(math.IsNaN(x) && math.IsNaN(y)) {
			return fmt.Sprintf("%s: %v against %v", path, x, y)
		}
	case reflect.Func, reflect.Chan, reflect.UnsafePointer:
	case reflect.Bool:
		if a.Bool() != b.Bool() {
			return fmt.Sprintf("%s: %v against %v", path, a.Bool(), b.Bool())
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if a.Int() != b.Int() {
			return fmt.Sprintf("%s: %v against %v", path, a.Int(), b.Int())
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if a.Uint() != b.Uint() {
			return fmt.Sprintf("%s: %v against %v", path, a.Uint(), b.Uint())
		}
	case reflect.String:
		if a.String() != b.String() {
			return fmt.Sprintf("%s: %q against %q", path, a.String(), b.String())
		}
	case reflect.Complex64, reflect.Complex128:
		if a.Complex() != b.Complex() {
			return fmt.Sprintf("%s: %v against %v", path, a.Complex(), b.Complex())
		}
	}
	return ""
}

// DiffFields is Diff for field trees, without reflection on the way down:
// replays hold millions of fields and a follow test compares them all.
func DiffFields(a, b []model.Field) string {
	if len(a) != len(b) {
		return fmt.Sprintf(": %d fields against %d", len(a), len(b))
	}
	for i := range a {
		f, g := &a[i], &b[i]
		if f.Key != g.Key || f.Label != g.Label || f.Name != g.Name || f.Span != g.Span || !sameValue(f.Value, g.Value) {
			return fmt.Sprintf("[%d] %s: %+v against %+v", i, f.Key, *f, *g)
		}
		if s := DiffFields(f.Fields, g.Fields); s != "" {
			return fmt.Sprintf("[%d] %s%s", i, f.Key, s)
		}
	}
	return ""
}

// sameValue compares two field values: NaN equals NaN, bytes and times by
// content, the rest with == when their type allows it.
func sameValue(a, b any) bool {
	if a == nil || b == nil || reflect.TypeOf(a) != reflect.TypeOf(b) || !reflect.TypeOf(a).Comparable() {
		return Diff(a, b) == ""
	}
	return model.SameValue(a, b)
}
