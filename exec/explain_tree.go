package exec

import "strings"

// PlanNodeJSON is one operator of the plan tree in EXPLAIN (FORMAT JSON):
// its name ("PARQUET_SCAN", "ORDER BY"), the rest of its line, the lines
// that describe it ("pushdown: order_id > 5", "hive partitions [year]")
// and its inputs.
type PlanNodeJSON struct {
	Operator   string          `json:"operator"`
	Detail     string          `json:"detail"`
	Properties []string        `json:"properties"`
	Children   []*PlanNodeJSON `json:"children"`
}

// planTree reads the indented plan text (two blanks a level) into a tree.
// An operator's line starts with its upper-case name; a deeper line that
// does not is a property of the operator above it.
func planTree(text string) *PlanNodeJSON {
	type open struct {
		depth int
		node  *PlanNodeJSON
	}
	var root *PlanNodeJSON
	var stack []open
	for _, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimLeft(line, " ")
		if trimmed == "" {
			continue
		}
		depth := (len(line) - len(trimmed)) / 2
		for len(stack) > 0 && stack[len(stack)-1].depth >= depth {
			stack = stack[:len(stack)-1]
		}
		if !isOperatorLine(trimmed) && len(stack) > 0 {
			parent := stack[len(stack)-1].node
			parent.Properties = append(parent.Properties, trimmed)
			continue
		}
		n := newPlanNode(trimmed)
		switch {
		case len(stack) > 0:
			parent := stack[len(stack)-1].node
			parent.Children = append(parent.Children, n)
		case root == nil:
			root = n
		default:
			// A second top-level line: keep it as a property of the root.
			root.Properties = append(root.Properties, trimmed)
			continue
		}
		stack = append(stack, open{depth, n})
	}
	return root
}

// isOperatorLine reports whether a plan line starts with an operator name:
// an upper-case word.
func isOperatorLine(s string) bool {
	word, _, _ := strings.Cut(s, " ")
	return word != "" && strings.ToUpper(word) == word && word[0] >= 'A' && word[0] <= 'Z'
}

// newPlanNode splits an operator line into its name and the rest; ORDER BY
// and the set operations' ALL belong to the name.
func newPlanNode(line string) *PlanNodeJSON {
	words := strings.SplitN(line, " ", 3)
	n := 1
	if len(words) > 1 {
		switch {
		case words[0] == "ORDER" && words[1] == "BY":
			n = 2
		case words[1] == "ALL" && (words[0] == "UNION" || words[0] == "EXCEPT" || words[0] == "INTERSECT"):
			n = 2
		}
	}
	name := strings.Join(words[:min(n, len(words))], " ")
	return &PlanNodeJSON{Operator: name, Detail: strings.TrimSpace(strings.TrimPrefix(line, name)),
		Properties: []string{}, Children: []*PlanNodeJSON{}}
}
