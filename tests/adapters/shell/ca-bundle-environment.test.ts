/**
 * The CA-bundle variables, with real files and links: on the host they pass as given; for the
 * sandbox each path is resolved and passed as its real path, or withheld with why.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { caBundleEnvironment } from "../../../src/adapters/shell/index.js";

describe("caBundleEnvironment", () => {
  let base: string;
  let ca: string;
  let certs: string;

  beforeEach(() => {
    base = mkdtempSync(join(realpathSync(tmpdir()), "ca-bundles-"));
    ca = join(base, "ca.pem");
    writeFileSync(ca, "-----BEGIN CERTIFICATE-----\n");
    certs = join(base, "certs");
    mkdirSync(certs);
  });

  afterEach(() => {
    rmSync(base, { recursive: true, force: true });
  });

  it("on the host, passes each path as the host has it, links included", () => {
    const link = join(base, "link.pem");
    symlinkSync(ca, link);
    expect(caBundleEnvironment({ NODE_EXTRA_CA_CERTS: link, SSL_CERT_DIR: certs })).toEqual({
      environment: { NODE_EXTRA_CA_CERTS: link, SSL_CERT_DIR: certs },
      withheld: [],
    });
  });

  it("for the sandbox, passes the real path a link leads to, each of SSL_CERT_DIR's too", () => {
    const link = join(base, "link.pem");
    symlinkSync(ca, link);
    const linkedDir = join(base, "linked-certs");
    symlinkSync(certs, linkedDir);
    const checked: string[] = [];
    const bundles = caBundleEnvironment(
      { SSL_CERT_FILE: link, SSL_CERT_DIR: `${linkedDir}::${certs}` },
      (real) => {
        checked.push(real);
        return undefined;
      },
    );
    expect(bundles).toEqual({
      environment: { SSL_CERT_FILE: ca, SSL_CERT_DIR: `${certs}:${certs}` },
      withheld: [],
    });
    expect(checked).toEqual([ca, certs, certs]);
  });

  it("for the sandbox, withholds one whose real path the check refuses, with the check's words", () => {
    const link = join(base, "link.pem");
    symlinkSync(ca, link);
    const bundles = caBundleEnvironment(
      { GIT_SSL_CAINFO: link, CURL_CA_BUNDLE: "/etc/hosts", SSL_CERT_DIR: `/etc:${certs}` },
      (real) =>
        real.startsWith(`${base}/`) ? "inside the workspace, which commands can change" : undefined,
    );
    expect(bundles).toEqual({
      environment: { CURL_CA_BUNDLE: realpathSync("/etc/hosts") },
      withheld: [
        "SSL_CERT_DIR (inside the workspace, which commands can change)",
        "GIT_SSL_CAINFO (inside the workspace, which commands can change)",
      ],
    });
  });

  it("withholds a relative, missing, dangling or wrong-kind path, on the host and for the sandbox", () => {
    const dangling = join(base, "dangling.pem");
    symlinkSync(join(base, "gone.pem"), dangling);
    const env = {
      NODE_EXTRA_CA_CERTS: "relative.pem",
      SSL_CERT_FILE: dangling,
      SSL_CERT_DIR: ca,
      REQUESTS_CA_BUNDLE: certs,
      CURL_CA_BUNDLE: "  ",
    };
    const withheld = [
      "NODE_EXTRA_CA_CERTS (not an absolute path)",
      "SSL_CERT_FILE (it does not exist)",
      "SSL_CERT_DIR (not a directory)",
      "REQUESTS_CA_BUNDLE (not a file)",
    ];
    expect(caBundleEnvironment(env)).toEqual({ environment: {}, withheld });
    expect(caBundleEnvironment(env, () => undefined)).toEqual({ environment: {}, withheld });
  });
});
