import { describe, expect, it } from "vitest";
import {
  ALL_PROFILES,
  CAPABILITIES,
  CapabilitySet,
  isCanonicalProfile,
  keepsAudit,
  LATEST_CHAPTER,
  P01,
  P02,
  P03,
  P04,
  profileForChapter,
  PROFILES,
  type Capability,
} from "../../src/core/profiles.js";

describe("chapter profiles", () => {
  it.each([
    [P01, "P01", 1, ["loop", "powershell", "tool_registry"]],
    [P02, "P02", 2, ["loop", "powershell", "tool_registry", "files"]],
    [P03, "P03", 3, ["loop", "powershell", "tool_registry", "files", "policy"]],
    [P04, "P04", 4, ["loop", "tool_registry", "files", "policy", "fetch_url"]],
  ] as const)("%#: %s declares its tools and is frozen", (profile, id, chapter, capabilities) => {
    expect(profile.id).toBe(id);
    expect(profile.chapter).toBe(chapter);
    expect(profile.capabilities.toArray()).toEqual(capabilities);
    expect([...profile.capabilities]).toEqual(capabilities);
    expect(profile.capabilities.size).toBe(capabilities.length);
    expect(Object.isFrozen(profile)).toBe(true);
    expect(Object.isFrozen(profile.capabilities)).toBe(true);
    expect(Object.isFrozen(profile.systemPrompt)).toBe(true);
    expect(() => {
      Object.assign(profile, { capabilities: new CapabilitySet(CAPABILITIES) });
    }).toThrow(TypeError);
  });

  it("says what each profile builds", () => {
    expect(
      ALL_PROFILES.map(({ id, commandTool, capabilities, sandbox, approvals }) => ({
        id,
        commandTool,
        policy: capabilities.has("policy"),
        sandbox,
        approvals,
      })),
    ).toEqual([
      {
        id: "P01",
        commandTool: "shell",
        policy: false,
        sandbox: "optional",
        approvals: "terminal",
      },
      {
        id: "P02",
        commandTool: "shell",
        policy: false,
        sandbox: "optional",
        approvals: "terminal",
      },
      {
        id: "P03",
        commandTool: "shell",
        policy: true,
        sandbox: "optional",
        approvals: "terminal",
      },
      {
        id: "P04",
        commandTool: "run_command",
        policy: true,
        sandbox: "required",
        approvals: "grants",
      },
    ]);
  });

  it("only P03 and P04 keep an audit; P01 has no files", () => {
    expect(ALL_PROFILES.map((profile) => keepsAudit(profile))).toEqual([false, false, true, true]);
    expect(P01.capabilities.has("files")).toBe(false);
  });

  it("chapter 3 is the seed's P03: five capabilities, the policy among them", () => {
    expect(P03.chapter).toBe(3);
    expect([...P03.capabilities]).toEqual([
      "loop",
      "powershell",
      "tool_registry",
      "files",
      "policy",
    ]);
    expect(P03.capabilities.has("policy")).toBe(true);
    expect(P02.capabilities.has("policy")).toBe(false);
  });

  it("the lists of capabilities and profiles are frozen", () => {
    expect(CAPABILITIES).toEqual([
      "loop",
      "powershell",
      "tool_registry",
      "files",
      "policy",
      "fetch_url",
    ]);
    expect(Object.isFrozen(CAPABILITIES)).toBe(true);
    expect(Object.isFrozen(PROFILES)).toBe(true);
    expect(Object.isFrozen(ALL_PROFILES)).toBe(true);
    expect(LATEST_CHAPTER).toBe(3);
  });
});

describe("CapabilitySet", () => {
  it("exposes only read methods and no reachable Set", () => {
    const set = new CapabilitySet(["fetch_url", "files"]);
    const prototypeMethods = Object.getOwnPropertyNames(CapabilitySet.prototype).sort();
    expect(prototypeMethods).toEqual([
      "constructor",
      "entries",
      "forEach",
      "has",
      "keys",
      "size",
      "toArray",
      "values",
    ]);
    expect(Object.getOwnPropertySymbols(CapabilitySet.prototype)).toEqual([Symbol.iterator]);
    expect(Object.getOwnPropertyNames(set)).toEqual([]);
    expect(Object.getOwnPropertySymbols(set)).toEqual([]);
    expect(Object.isFrozen(set)).toBe(true);
  });

  it("behaves as a ReadonlySet: entries, keys, values and forEach, in canonical order", () => {
    const set: ReadonlySet<Capability> = new CapabilitySet(["policy", "files", "loop"]);
    expect([...set.keys()]).toEqual(["loop", "files", "policy"]);
    expect([...set.values()]).toEqual(["loop", "files", "policy"]);
    expect([...set.entries()]).toEqual([
      ["loop", "loop"],
      ["files", "files"],
      ["policy", "policy"],
    ]);
    const seen: [Capability, Capability, ReadonlySet<Capability>][] = [];
    set.forEach((value, key, owner) => seen.push([value, key, owner]));
    expect(seen).toEqual([
      ["loop", "loop", set],
      ["files", "files", set],
      ["policy", "policy", set],
    ]);
    expect(new Set(set)).toEqual(new Set(["loop", "files", "policy"]));
  });

  it("toArray returns a copy in canonical order; changing it changes nothing", () => {
    const set = new CapabilitySet(["fetch_url", "files", "fetch_url"]);
    const listed = set.toArray();
    expect(listed).toEqual(["files", "fetch_url"]);
    listed.pop();
    expect(set.has("fetch_url")).toBe(true);
    expect(set.toArray()).toEqual(["files", "fetch_url"]);
  });

  it("copies its input: the caller's collection cannot add a capability later", () => {
    const input = new Set<Capability>(["files"]);
    const set = new CapabilitySet(input);
    input.add("fetch_url");
    expect(set.has("fetch_url")).toBe(false);
  });

  it("rejects an unknown capability", () => {
    expect(() => new CapabilitySet(["files", "root" as Capability])).toThrow(
      new RangeError("Unknown capability: root"),
    );
  });

  it("has() is false for prototype names", () => {
    const set = new CapabilitySet(CAPABILITIES);
    for (const name of ["toString", "__proto__", "constructor"]) {
      expect(set.has(name as Capability)).toBe(false);
    }
  });
});

describe("profileForChapter", () => {
  it.each([
    [1, P01],
    [2, P02],
    [3, P03],
    [4, P04],
  ] as const)("chapter %i is the canonical object", (chapter, profile) => {
    expect(profileForChapter(chapter)).toBe(profile);
  });

  it.each([0, 5, 1.5, Number.NaN])("chapter %s is a RangeError", (chapter) => {
    expect(() => profileForChapter(chapter)).toThrow(
      new RangeError(`Unknown chapter: ${chapter}. Choose 1, 2, 3 or 4.`),
    );
  });
});

describe("isCanonicalProfile", () => {
  it("accepts the canonical objects", () => {
    expect(PROFILES.every((profile) => isCanonicalProfile(profile))).toBe(true);
  });

  it.each<[string, unknown]>([
    ["a spread copy of P03", { ...P03 }],
    ["P01 with P03's capabilities", { ...P01, capabilities: P03.capabilities }],
    [
      "a look-alike with every capability",
      Object.freeze({
        id: "P01",
        chapter: 1,
        title: P01.title,
        capabilities: new CapabilitySet(CAPABILITIES),
      }),
    ],
    ["an object on the same prototype", Object.create(P01) as unknown],
    ["null", null],
  ])("rejects %s", (_label, candidate) => {
    expect(isCanonicalProfile(candidate)).toBe(false);
  });
});
