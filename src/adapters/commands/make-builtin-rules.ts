/**
 * GNU make's built-in implicit rules (4.3, `make -p -f /dev/null`), as what each may build from
 * what: a name with no recipe of its own is built by the first rule whose source is there (or
 * can be built in turn), so `test: hello` with `hello.sh` there runs `cat hello.sh > hello`.
 * The reader binds, for each name, every source these rules could use, chained as make chains
 * them. Pure: make-reach.ts looks at the files.
 */
import { dirname, join } from "node:path";

/** `TARGET: SOURCES` with `%` the stem; a target of "%" matches any name. */
const RULES: readonly (readonly [string, readonly string[]])[] = (
  "%.c: %.l;%.c: %.w;%.c: %.w %.ch;%.c: %.y;%.dvi: %.tex;%.dvi: %.texi;%.dvi: %.texinfo;" +
  "%.dvi: %.txinfo;%.f: %.F;%.f: %.r;%.info: %.texi;%.info: %.texinfo;%.info: %.txinfo;" +
  "%.ln: %.c;%.ln: %.l;%.ln: %.y;%.m: %.ym;%.m: %.lm;%.o: %.C;%.o: %.F;%.o: %.S;%.o: %.c;" +
  "%.o: %.cc;%.o: %.cpp;%.o: %.f;%.o: %.m;%.o: %.mod;%.o: %.p;%.o: %.r;%.o: %.s;%.out: %;" +
  "%.p: %.web;%.r: %.l;%.s: %.S;%.sym: %.def;%.tex: %.w;%.tex: %.w %.ch;%.tex: %.web;" +
  "%: %.C;%: %.F;%: %.S;%: %.c;%: %.cc;%: %.cpp;%: %.f;%: %.m;%: %.mod;%: %.o;%: %.p;" +
  "%: %.r;%: %.s;%: %.sh"
)
  .split(";")
  .map((rule) => {
    const [target = "", sources = ""] = rule.split(": ");
    return [target, sources.split(" ")] as const;
  });

/** The terminal (`%::`) version-control rules: a checked-out file may come from these. */
const CHECKOUTS = ["%,v", "RCS/%,v", "RCS/%", "s.%", "SCCS/s.%"];

/**
 * The default .SUFFIXES: a name ending in one "indicates a specific type of data", and make
 * does not build it with a match-anything (`%: …`) rule.
 */
const SUFFIXES = (
  ".out .a .ln .o .c .cc .C .cpp .p .f .F .m .r .y .l .ym .yl .s .S .mod .sym .def .h .info " +
  ".dvi .tex .texinfo .texi .txinfo .w .ch .web .sh .elc .el"
).split(" ");

/**
 * Every file make's built-in rules may read to build `name` (from make's folder), sources of
 * sources included, each rule at most once in a chain as make uses them; a pattern without a
 * slash matches the file's own name, in its folder.
 */
export function builtinSources(name: string): string[] {
  const found = new Set<string>();
  const visit = (target: string, used: ReadonlySet<number>): void => {
    const folder = dirname(target);
    const base = target.slice(folder === "." ? 0 : folder.length + 1);
    const at = (pattern: string, stem: string): string => {
      const file = pattern.replace("%", stem);
      return folder === "." ? file : join(folder, file);
    };
    for (const checkout of CHECKOUTS) found.add(at(checkout, base));
    const typed = SUFFIXES.some((suffix) => base.endsWith(suffix) && base !== suffix);
    RULES.forEach(([pattern, sources], index) => {
      const suffix = pattern.slice(1);
      if (used.has(index) || !base.endsWith(suffix) || base.length <= suffix.length) return;
      if (suffix === "" && typed) return;
      const stem = base.slice(0, base.length - suffix.length);
      for (const source of sources) {
        const file = at(source, stem);
        if (found.has(file) || file === target) continue;
        found.add(file);
        visit(file, new Set([...used, index]));
      }
    });
  };
  visit(name, new Set());
  found.delete(name);
  return [...found];
}
