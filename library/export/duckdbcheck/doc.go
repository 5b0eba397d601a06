// Package duckdbcheck holds a test only: that the DuckDB query the README
// gives for `rewind stats --by character` over an exported dataset returns
// the numbers stats --by gives. It lives apart from library/export so that
// only this test links DuckDB (through its cgo driver).
package duckdbcheck
