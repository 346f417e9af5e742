import type { RunningServer } from '../lib/server.js';
import type { WebhookSink } from '../lib/webhook-sink.js';

interface ToolContext {
  server: RunningServer;
  sink: WebhookSink;
  /** Prints one line under the tool's heading. */
  log(line: string): void;
  /** The self-check's fault, for servers the tool starts itself. */
  serverFault?: string;
}

export interface ToolResult {
  ok: boolean;
  /** What was checked, one line each: counts, skips and their reasons. */
  summary: string[];
  /** What failed, in full. */
  failures: string[];
}

export interface Tool {
  name: string;
  /** What it proves, for the heading. */
  description: string;
  run(context: ToolContext): Promise<ToolResult>;
}
