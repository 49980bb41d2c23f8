package sql

import (
	"strings"

	"github.com/xwb1989/sqlparser"
)

// DuckDB's operators outside MySQL's arithmetic: |, &, <<, >>, || (and
// every operator its grammar calls Op) share one precedence level, below +
// and -, and associate left: 4 | 1 & 2 is (4 | 1) & 2. MySQL gives |, &
// and the shifts three levels (all still between the comparisons and +),
// so fixAST flattens every unparenthesized chain of them back into text
// order and rebuilds it leaning left. A prefix ~ takes everything up to the
// next operator of that level (~5 + 1 is ~(5 + 1), ~5 | 1 is (~5) | 1),
// which lowerTilde makes explicit with parentheses.

// opChars are the characters a DuckDB operator is made of; adjacent ones
// lex as one operator.
const opChars = "~!@#^&|`?+-*/%<>="

// checkOperatorRuns refuses adjacent operators that DuckDB's lexer reads as
// one unknown operator: 5|-3 is the operator |-, ~-5 the operator ~-. A
// run of operator characters keeps its trailing + or - (rather than giving
// them to the operand) when it holds any of ~ ! @ # ^ & | ` ? %.
func (p *parser) checkOperatorRuns(lo, hi int) error {
	for i := lo; i+1 < hi; i++ {
		a, b := p.toks[i], p.toks[i+1]
		if a.kind != tkOp || b.kind != tkOp || a.end != b.off || !isOpRun(a.val) || !isOpRun(b.val) {
			continue
		}
		j, run := i+1, a.val+b.val
		for j+1 < hi && p.toks[j+1].kind == tkOp && p.toks[j].end == p.toks[j+1].off && isOpRun(p.toks[j+1].val) {
			j++
			run += p.toks[j].val
		}
		if strings.ContainsAny(run, "~&|%^") {
			return p.errAt(i, ErrCatalog, "Scalar Function with name "+run+" does not exist!")
		}
		i = j
	}
	return nil
}

func isOpRun(s string) bool {
	for _, c := range s {
		if !strings.ContainsRune(opChars, c) {
			return false
		}
	}
	return s != ""
}

// isPrefixPosition reports whether an operator at out[i] has no left
// operand: it starts the expression, or follows an operator, an opening
// bracket, a comma or a keyword.
func isPrefixPosition(out []otok, i int) bool {
	if i == 0 {
		return true
	}
	prev := out[i-1]
	switch prev.kind {
	case tkOp:
		return prev.val != ")" && prev.val != "]" && prev.val != "}"
	case tkWord:
		return structural[prev.kw]
	}
	return false
}

// lowerTilde parenthesizes the operand of each prefix ~: the operand runs
// over the operators that bind tighter than DuckDB's Op level (+ - * / %
// ^ ::, subscripts and field access) and stops at anything else.
func (p *parser) lowerTilde(out []otok) ([]otok, error) {
	for i := len(out) - 1; i >= 0; i-- {
		if !isOpTok(out, i, "~") {
			continue
		}
		if !isPrefixPosition(out, i) {
			return nil, p.errOut(out, i, ErrUnsupported, "operator ~ (regular expression match) is not supported: use regexp_full_match")
		}
		end := tildeOperandEnd(out, i+1)
		if end <= i+1 {
			return nil, p.errOut(out, i+1, ErrSyntax, "expected an expression after ~")
		}
		o := out[i+1].orig
		rep := append([]otok{invented("(", o)}, out[i+1:end]...)
		rep = append(rep, invented(")", o))
		out = splice(out, i+1, end, rep...)
	}
	return out, nil
}

// tildeOperandEnd returns the end of the operand starting at out[i].
func tildeOperandEnd(out []otok, i int) int {
	operand := true // an operand is expected next
	for i < len(out) {
		o := out[i]
		if operand {
			switch {
			case isOpTok(out, i, "(") || isOpTok(out, i, "[") || isOpTok(out, i, "{"):
				i = closeOf(out, i)
			case isOpTok(out, i, "-") || isOpTok(out, i, "+") || isOpTok(out, i, "~"):
				i++
				continue
			case o.kind == tkWord && o.kw == "case":
				i = caseEnd(out, i)
			case o.kind == tkWord && structural[o.kw]:
				return i
			case o.kind == tkWord || o.kind == tkQIdent:
				switch {
				case isOpTok(out, i+1, "("):
					i = closeOf(out, i+1)
				case i+1 < len(out) && out[i+1].kind == tkString:
					i++ // a typed literal: DATE '2024-01-01'
				}
			case o.kind == tkNumber || o.kind == tkString:
			default:
				return i
			}
			if i < 0 {
				return len(out)
			}
			i++
			operand = false
			continue
		}
		switch {
		case isOpTok(out, i, "::"):
			i++
			for i < len(out) && (out[i].kind == tkWord || out[i].kind == tkQIdent) {
				i++
			}
			for isOpTok(out, i, "(") || isOpTok(out, i, "[") {
				if i = closeOf(out, i); i < 0 {
					return len(out)
				}
				i++
			}
		case isOpTok(out, i, "["):
			if i = closeOf(out, i); i < 0 {
				return len(out)
			}
			i++
		case isOpTok(out, i, "."):
			i += 2
		case o.kind == tkOp && strings.Contains("+ - * / % ^ // **", o.val) && len(o.val) <= 2 && o.val != "":
			i++
			operand = true
		default:
			return i
		}
	}
	return min(i, len(out))
}

// closeOf returns the index of the bracket closing the one at i, or -1.
func closeOf(out []otok, i int) int {
	open, close := out[i].val, map[string]string{"(": ")", "[": "]", "{": "}"}[out[i].val]
	depth := 0
	for j := i; j < len(out); j++ {
		switch {
		case isOpTok(out, j, open):
			depth++
		case isOpTok(out, j, close):
			if depth--; depth == 0 {
				return j
			}
		}
	}
	return -1
}

// caseEnd returns the index of the END closing the CASE at i, or -1.
func caseEnd(out []otok, i int) int {
	depth := 0
	for j := i; j < len(out); j++ {
		switch out[j].kw {
		case "case":
			depth++
		case "end":
			if depth--; depth == 0 {
				return j
			}
		}
	}
	return -1
}

// bitwiseOr reports whether the | of sqlparser's tree mean bitwise or
// rather than ||: the lowering writes both as |, so a query may use one of
// them only.
func (p *parser) bitwiseOr(out []otok) (bool, error) {
	bar, concat := -1, -1
	for i := range out {
		switch {
		case out[i].kind != tkOp:
		case out[i].val == "|" && bar < 0:
			bar = i
		case out[i].val == "||" && concat < 0:
			concat = i
		}
	}
	if bar >= 0 && concat >= 0 {
		return false, p.errOut(out, max(bar, concat), ErrUnsupported, "bitwise | and string concatenation || in one query are not supported: use concat() for one of them")
	}
	return bar >= 0, nil
}

// opLevel are the operators of DuckDB's Op level as sqlparser writes them
// (BitOrStr stands for || and for |, one meaning per query).
var opLevel = map[string]bool{
	sqlparser.BitOrStr: true, sqlparser.BitAndStr: true,
	sqlparser.ShiftLeftStr: true, sqlparser.ShiftRightStr: true,
}

// fixOpLevel rebuilds the chain of Op-level operators rooted at n leaning
// left, in the order they were written. Parenthesized operands are kept
// whole.
func fixOpLevel(n *sqlparser.BinaryExpr, pos map[sqlparser.SQLNode]int) {
	var operands []sqlparser.Expr
	var ops []string
	var flatten func(e sqlparser.Expr)
	flatten = func(e sqlparser.Expr) {
		if b, ok := e.(*sqlparser.BinaryExpr); ok && opLevel[b.Operator] {
			flatten(b.Left)
			ops = append(ops, b.Operator)
			flatten(b.Right)
			return
		}
		operands = append(operands, e)
	}
	flatten(n)
	if len(ops) < 2 {
		return
	}
	// The nodes of the chain are reused (the root stays the root, as the
	// positions map keys them) with their operands reassigned.
	var nodes []*sqlparser.BinaryExpr
	var collect func(e sqlparser.Expr)
	collect = func(e sqlparser.Expr) {
		if b, ok := e.(*sqlparser.BinaryExpr); ok && opLevel[b.Operator] {
			collect(b.Left)
			nodes = append(nodes, b)
			collect(b.Right)
		}
	}
	collect(n)
	// nodes[k] holds operator k and keeps its position; the root must
	// hold the last operator, so it trades places (and positions) with
	// the node that did.
	offs := make([]int, len(nodes))
	known := make([]bool, len(nodes))
	for k, b := range nodes {
		offs[k], known[k] = pos[b]
	}
	for k, b := range nodes {
		if b == n {
			nodes[k], nodes[len(nodes)-1] = nodes[len(nodes)-1], nodes[k]
			break
		}
	}
	left := operands[0]
	for k := range ops {
		b := nodes[k]
		b.Operator, b.Left, b.Right = ops[k], left, operands[k+1]
		delete(pos, b)
		left = b
	}
	for k, b := range nodes {
		if known[k] {
			pos[b] = offs[k]
		}
	}
}
