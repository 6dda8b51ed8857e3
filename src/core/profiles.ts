/** Chapter profiles: what each stage of the tutorial's harness is allowed to assemble. */

export const CAPABILITIES = Object.freeze([
  "loop",
  "powershell",
  "tool_registry",
  "files",
  "policy",
] as const);
export type Capability = (typeof CAPABILITIES)[number];

/** Read-only at runtime: the Set is private and only query methods are exposed. */
export class CapabilitySet {
  readonly #capabilities: ReadonlySet<Capability>;

  constructor(capabilities: Iterable<Capability>) {
    const set = new Set<Capability>();
    for (const capability of capabilities) {
      if (!(CAPABILITIES as readonly string[]).includes(capability)) {
        throw new RangeError(`Unknown capability: ${capability}`);
      }
      set.add(capability);
    }
    this.#capabilities = set;
    Object.freeze(this);
  }

  has(capability: Capability): boolean {
    return this.#capabilities.has(capability);
  }

  toArray(): Capability[] {
    return CAPABILITIES.filter((capability) => this.#capabilities.has(capability));
  }

  get size(): number {
    return this.#capabilities.size;
  }
}

export interface ChapterProfile {
  readonly id: "P01" | "P02" | "P03";
  readonly chapter: 1 | 2 | 3;
  readonly title: string;
  readonly capabilities: CapabilitySet;
}

function profile(
  id: ChapterProfile["id"],
  chapter: ChapterProfile["chapter"],
  title: string,
  capabilities: Capability[],
): ChapterProfile {
  return Object.freeze({ id, chapter, title, capabilities: new CapabilitySet(capabilities) });
}

export const P01 = profile("P01", 1, "Shell loop", ["loop", "powershell", "tool_registry"]);
export const P02 = profile("P02", 2, "File tools", [
  "loop",
  "powershell",
  "tool_registry",
  "files",
]);
export const P03 = profile("P03", 3, "Permissions before side effects", [
  "loop",
  "powershell",
  "tool_registry",
  "files",
  "policy",
]);

export const PROFILES = Object.freeze([P01, P02, P03] as const);
export const LATEST_CHAPTER = 3;

export function profileForChapter(chapter: number): ChapterProfile {
  const found = PROFILES.find((candidate) => candidate.chapter === chapter);
  if (found === undefined) {
    throw new RangeError(`Unknown chapter: ${chapter}. Choose 1, 2 or 3.`);
  }
  return found;
}

/** True only for the canonical frozen object, so a look-alike with extra capabilities is refused. */
export function isCanonicalProfile(candidate: unknown): candidate is ChapterProfile {
  return PROFILES.some((known) => known === candidate);
}
