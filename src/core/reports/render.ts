// Turns the content model into a file's bytes, and writes files so that a crash never leaves half a file.
import { threadId } from 'node:worker_threads';
import type { ReportContent, ReportFormat, ReportSummary } from '../../shared/api/reports';
import { AppError, isAppError } from '../errors';
import type { Sql } from '../store/sql';
import { buildReportContent, type ReportContentInput } from './content';
import type { ReportFiles } from './files';
import { renderMarkdown } from './markdown';

export const FILE_EXTENSIONS: Record<ReportFormat, string> = { json: 'json', pdf: 'pdf', markdown: 'md' };

export const CONTENT_TYPES: Record<ReportFormat, string> = {
  json: 'application/json',
  pdf: 'application/pdf',
  markdown: 'text/markdown; charset=utf-8',
};

export async function renderReport(content: ReportContent, format: ReportFormat): Promise<Buffer> {
  switch (format) {
    case 'json':
      return Buffer.from(`${JSON.stringify(content, null, 2)}\n`, 'utf8');
    case 'markdown':
      return Buffer.from(renderMarkdown(content), 'utf8');
    case 'pdf': {
      // A dynamic import: @react-pdf/renderer is ESM-only and must not be loaded through require().
      const { renderPdf } = await import('./pdf/render');
      return renderPdf(content);
    }
  }
}

/** One generation (all plain data, so it can be posted to the render worker). */
export interface GenerateJob {
  input: Omit<ReportContentInput, 'generatedAt'> & { generatedAt: string };
  format: ReportFormat;
  /** Where the finished file is kept, relative to the install's report files (`reports/ID.pdf`). */
  relativePath: string;
}

/** A generation posted to the render worker, which opens the data directory itself. */
export interface WorkerGenerateJob extends GenerateJob {
  dataDir: string;
}

export interface GenerateResult {
  summary: ReportSummary;
  bytes: number;
  /** The thread that rendered it (0 = the main thread), so hosts and tests can tell where work ran. */
  threadId: number;
}

/** Builds, renders and stores one report (whole or not at all, through `files`). */
export async function generateReport(
  sql: Sql,
  files: ReportFiles,
  job: GenerateJob,
): Promise<GenerateResult> {
  const content = await buildReportContent(sql, {
    ...job.input,
    generatedAt: new Date(job.input.generatedAt),
  });
  const body = await renderReport(content, job.format);
  await files.save(job.input.reportId, job.relativePath, body);
  const { totalSpend, totalConversions, avgCpa, avgRoas, overallRiskLevel } = content.summary;
  return {
    summary: { totalSpend, totalConversions, avgCpa, avgRoas, overallRiskLevel },
    bytes: body.length,
    threadId,
  };
}

export interface JobError {
  type: string;
  message: string;
}

export function toJobError(error: unknown): JobError {
  if (isAppError(error)) return { type: error.type, message: error.message };
  return { type: 'api_error', message: error instanceof Error ? error.message : String(error) };
}

export function fromJobError(error: JobError): Error {
  return new AppError(error.type === 'not_found' ? 'not_found' : 'api_error', error.message);
}
