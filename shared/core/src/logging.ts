import type { DestinationStream, LoggerOptions } from "pino";
import type { Config } from "./config";
import { scrubLogArguments } from "./log-scrub";

/**
 * The pino options of every logger of every process: the brokers' (Moleculer's Pino logger, which
 * moleculer-web, the services, workers and event consumers log through) and createLogger()'s.
 * Every log call's arguments go through scrubLogArguments first, whatever the code logs: SQL
 * parameters, tokens and credentials never reach the output. JSON lines, without pid and host.
 */
export function pinoOptions(config: Pick<Config, "LOG_LEVEL">): LoggerOptions {
  return {
    level: config.LOG_LEVEL,
    base: undefined,
    hooks: {
      logMethod(args, method) {
        method.apply(this, scrubLogArguments(args) as typeof args);
      },
    },
  };
}

/**
 * Where every logger of the process writes: process.stdout, one stream (synchronous on files and
 * pipes) whatever logs, which also lets a test read what the process logged.
 */
export const logDestination = (): DestinationStream => process.stdout;
