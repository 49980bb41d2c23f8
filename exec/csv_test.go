package exec

import (
	"math"
	"math/big"
	"testing"
)

func TestCSVFormatAppendRows(t *testing.T) {
	ints := &Vector{Type: Type{ID: TypeBigInt}, Int: []int64{0, -7, math.MinInt64}, Nulls: []bool{false, false, true}}
	ubig := &Vector{Type: Type{ID: TypeUBigInt}, Int: []int64{-1, 3, 0}}
	dec := &Vector{Type: Type{ID: TypeDecimal, Precision: 9, Scale: 2}, Int: []int64{5, -12345, 0}}
	wide := &Vector{Type: Type{ID: TypeDecimal, Precision: 38, Scale: 1}, Big: []*big.Int{big.NewInt(-1), big.NewInt(10), big.NewInt(0)}}
	strs := &Vector{Type: Type{ID: TypeVarchar}, Str: []string{"a,b", `say "hi"`, ""}}
	texts := &Vector{Type: Type{ID: TypeVarchar}, Str: []string{"NA", "line\nbreak", "0"}}
	dbl := &Vector{Type: Type{ID: TypeDouble}, Float: []float64{1.5, math.NaN(), 0}}
	for _, tc := range []struct {
		name string
		f    CSVFormat
		cols []*Vector
		want string
	}{
		{"numbers", CSVFormat{Sep: ",", Null: "NULL"}, []*Vector{ints, ubig, dec, wide, dbl},
			"0,18446744073709551615,0.05,-0.1,1.5\n-7,3,-123.45,1.0,nan\nNULL,0,0.00,0.0,0.0\n"},
		{"copy defaults", CSVFormat{Sep: ",", QuoteNull: true}, []*Vector{ints, strs},
			"0,\"a,b\"\n-7,\"say \"\"hi\"\"\"\n,\"\"\n"},
		{"shell defaults", CSVFormat{Sep: ",", Null: "NULL"}, []*Vector{strs, nil},
			"\"a,b\",NULL\n\"say \"\"hi\"\"\",NULL\n,NULL\n"},
		{"null text quoted", CSVFormat{Sep: ",", Null: "NA", QuoteNull: true}, []*Vector{texts, ints},
			"\"NA\",0\n\"line\nbreak\",-7\n0,NA\n"},
		{"numeric null text", CSVFormat{Sep: ";", Null: "0", QuoteNull: true}, []*Vector{ints, dec, texts},
			"\"0\";0.05;NA\n-7;-123.45;\"line\nbreak\"\n0;0.00;\"0\"\n"},
		{"digit separator", CSVFormat{Sep: "5", Null: ""}, []*Vector{dec, ints},
			"\"0.05\"50\n\"-123.45\"5-7\n0.005\n"},
		{"long separator", CSVFormat{Sep: "||", Null: ""}, []*Vector{strs, ubig},
			"a,b||18446744073709551615\n\"say \"\"hi\"\"\"||3\n||0\n"},
		{"null text needing quotes", CSVFormat{Sep: ",", Null: "a,b"}, []*Vector{ints},
			"0\n-7\n\"a,b\"\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := string(tc.f.AppendRows([]byte("x"), tc.cols, 3))
			if got != "x"+tc.want {
				t.Errorf("got\n%q\nwant\n%q", got, "x"+tc.want)
			}
		})
	}
}

func TestCSVFormatAppendHeader(t *testing.T) {
	f := CSVFormat{Sep: "\t"}
	got := string(f.AppendHeader(nil, []string{"a", "b\tc", `"q"`, "x,y"}))
	if want := "a\t\"b\tc\"\t\"\"\"q\"\"\"\tx,y\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
