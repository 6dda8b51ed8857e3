/**
 * The start-up files, below the home directory, that a login or interactive shell reads: bash,
 * zsh (and the folders people split their config into), ksh, csh, fish and PowerShell. What is in
 * them runs at the person's next shell, and `export OPENAI_API_KEY=…` usually lives there. One
 * list for both uses: the files a sandboxed command must not read (sandbox/credential-paths.ts),
 * and, with a session's own start-up files, the host files a write must never change
 * (bootstrap/host-files.ts `SESSION_STARTUP_FILES`).
 */
export const SHELL_STARTUP_FILES: readonly string[] = Object.freeze([
  ".profile",
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".bash_logout",
  ".bash_aliases",
  ".bashrc.d",
  ".bashrc.local",
  ".zshenv",
  ".zprofile",
  ".zshrc",
  ".zlogin",
  ".zlogout",
  ".zshrc.local",
  ".config/zsh",
  ".oh-my-zsh/custom",
  ".kshrc",
  ".mkshrc",
  ".cshrc",
  ".tcshrc",
  ".login",
  ".config/fish",
  ".config/powershell",
]);
