// Types of scripts/lighthouse-run.mjs for the TypeScript that imports it (e2e/lighthouse.e2e.ts).

/** The parts of Lighthouse's JSON report (LHR) the callers read. */
export interface LighthouseReport {
  lighthouseVersion: string;
  finalDisplayedUrl: string;
  categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] }>;
  audits: Record<
    string,
    {
      id: string;
      title: string;
      score: number | null;
      numericValue?: number;
      displayValue?: string;
      details?: { type?: string; items?: unknown[] };
    }
  >;
}

export const LIGHTHOUSE: string;
export const CATEGORIES: string[];
export function runLighthouse(
  url: string,
  options?: { categories?: string[]; chrome?: string },
): Promise<LighthouseReport>;
export function scores(report: LighthouseReport): Record<string, number>;
export function failures(report: LighthouseReport): string[];
export function metrics(report: LighthouseReport): string;
