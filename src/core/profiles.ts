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
  readonly id: "P01" | "P02" | "P03" | "P04";
  readonly chapter: 1 | 2 | 3 | 4;
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

/**
 * The second seed (permissions and security) past chapter 3: default deny, argv allowlists, and
 * approvals that wait as digest-bound one-time grants. Its own profile, because it contradicts
 * chapter 3 (which allows by default) where the tutorial fixes chapter 3's behaviour. The
 * capabilities are P03's less the shell: bootstrap recognises P04 by identity (it is canonical and
 * frozen like the others) and gives it `run_command` instead.
 */
export const P04 = profile("P04", 4, "Approvals that wait", [
  "loop",
  "tool_registry",
  "files",
  "policy",
]);

/** The tutorial's chapters, in order. */
export const PROFILES = Object.freeze([P01, P02, P03] as const);
/** Every profile `--chapter` can name: the tutorial's, then the seed's P04. */
export const ALL_PROFILES = Object.freeze([P01, P02, P03, P04] as const);
/** The tutorial's last chapter, and the default. */
export const LATEST_CHAPTER = 3;

export function profileForChapter(chapter: number): ChapterProfile {
  const found = ALL_PROFILES.find((candidate) => candidate.chapter === chapter);
  if (found === undefined) {
    throw new RangeError(`Unknown chapter: ${chapter}. Choose 1, 2, 3 or 4.`);
  }
  return found;
}

/** True only for the canonical frozen object, so a look-alike with extra capabilities is refused. */
export function isCanonicalProfile(candidate: unknown): candidate is ChapterProfile {
  return ALL_PROFILES.some((known) => known === candidate);
}
