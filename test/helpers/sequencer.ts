/**
 * The order vitest starts files in: the slow ones of {@link SLOW_FILES} first, longest first,
 * then the rest as vitest would order them (its cache of the last run's durations, else the
 * largest file first). Every file still runs; only the start order changes, so the long waits
 * (a minute of human-pace calls, 15,000 requests) overlap the many short files instead of
 * trailing after them.
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { SLOW_FILES } from './slow-files.js';

export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const weight = (spec: TestSpecification): number =>
      SLOW_FILES[relative(root, spec.moduleId).replaceAll('\\', '/')] ?? 0;
    // Array.prototype.sort is stable: files of equal weight keep vitest's order.
    return sorted
      .map((spec) => ({ spec, w: weight(spec) }))
      .sort((a, b) => b.w - a.w)
      .map(({ spec }) => spec);
  }
}
