/**
 * Variables that choose where a program finds its code, or which program a name runs: what
 * they lead to is not in the command's words (`PYTHONPATH=. python3 -c pass` imports
 * ./sitecustomize, `PATH=bin:$PATH tool` runs bin/tool), so a command setting one gets no grant.
 * (NODE_OPTIONS, BASH_ENV and MAKEFILES name files, and are bound.)
 */
export const LOADER_VARIABLES: ReadonlySet<string> = new Set([
  "PATH",
  "PYTHONPATH",
  "PYTHONHOME",
  "PYTHONUSERBASE",
  "PYTHONSTARTUP",
  "PERL5LIB",
  "PERLLIB",
  "PERL5OPT",
  "RUBYLIB",
  "RUBYOPT",
  "NODE_PATH",
  "LD_PRELOAD",
  "LD_LIBRARY_PATH",
  "LD_AUDIT",
  "MAKEFLAGS",
  "GNUMAKEFLAGS",
  "MFLAGS",
]);

/**
 * What make's recipes inherit that changes which program or file they run, beyond
 * LOADER_VARIABLES: BASH_ENV and ENV name a file the shell reads before each recipe. A makefile
 * that sets any of these (make passes an inherited variable on with the makefile's value) is
 * refused, not bound: simpler, and it holds whatever the value's files are.
 */
export const MAKE_LOADER_VARIABLES: ReadonlySet<string> = new Set([
  ...[...LOADER_VARIABLES].filter((name) => !/^(?:GNU)?MAKEFLAGS$|^MFLAGS$/u.test(name)),
  "BASH_ENV",
  "ENV",
]);
