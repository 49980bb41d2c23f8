package main

import "errors"

// Sentinel errors of the command line.
var (
	// errUnknownCommand reports a dot command pqsql does not have, or one
	// given the wrong arguments.
	errUnknownCommand = errors.New("unknown command")
	// errUnknownMode reports an output mode name pqsql does not have.
	errUnknownMode = errors.New("unknown output mode")
	// errInterrupted reports a statement cancelled by Ctrl-C.
	errInterrupted = errors.New("interrupted")
	// errReadDepth reports .read files nested too deeply (a file reading itself).
	errReadDepth = errors.New(".read nested too deeply")
	// errUnknownOption reports a command-line option pqsql does not have.
	errUnknownOption = errors.New("unknown option")
	// errMissingArgument reports an option given without its value.
	errMissingArgument = errors.New("missing argument")
	// errBadOption reports an option value pqsql cannot use.
	errBadOption = errors.New("invalid option value")
	// errSystem reports a .shell command that failed.
	errSystem = errors.New("shell command failed")
	// errUnexpectedArgument reports an argument that is not an option.
	errUnexpectedArgument = errors.New("unexpected argument")
	// errScriptTooLarge reports a script past maxScriptBytes.
	errScriptTooLarge = errors.New("script too large")
)
