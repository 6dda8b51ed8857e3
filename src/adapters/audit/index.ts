/**
 * The audit port (`AuditSink` in core/policy/audit.ts) as an append-only JSONL file: one line per final
 * permission decision, flushed to disk before the call it records may run.
 */
export { JsonlAuditLog, type AuditRecord, type JsonlAuditLogOptions } from "./jsonl-audit-log.js";
