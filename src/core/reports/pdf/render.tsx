// Renders a ReportContent to PDF bytes. ESM (see package.json here), loaded with a dynamic import.
import { renderToBuffer } from '@react-pdf/renderer';
import type { ReportContent } from '../../../shared/api/reports';
import { ReportDocument } from './document';
import { registerFonts } from './fonts';

export async function renderPdf(content: ReportContent): Promise<Buffer> {
  registerFonts();
  return renderToBuffer(<ReportDocument content={content} />);
}
