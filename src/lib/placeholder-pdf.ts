// The one-page PDFs served where a file is missing, as the original's FileNotFound.pdf (status 200,
// beyond-spec.md §8.4). Written out by hand: a page of Helvetica text needs no PDF library, and the
// bytes are built once.

/** A valid one-page A4 PDF showing `lines` (ASCII) in Helvetica. */
export function messagePdf(lines: readonly string[]): Buffer {
  const pdfString = (text: string) => text.replace(/[^\x20-\x7e]/g, '?').replace(/([\\()])/g, '\\$1');
  const text = lines.map((line, i) => `BT /F1 ${i === 0 ? 24 : 12} Tf 72 ${760 - i * 30} Td (${pdfString(line)}) Tj ET`).join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Length ${Buffer.byteLength(text)} >>\nstream\n${text}\nendstream`,
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(pdf));
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(pdf);
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  pdf += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

let fileNotFound: Buffer | undefined;

/** FileNotFound.pdf: what a download of a file not (yet) uploaded answers. */
export function fileNotFoundPdf(): Buffer {
  fileNotFound ??= messagePdf(['File not found', 'This file has not been uploaded yet.']);
  return fileNotFound;
}

let awaitingProcessing: Buffer | undefined;

/** AwaitingProcessing.pdf: what a submission's PDF download answers while its files wait to be assembled. */
export function awaitingProcessingPdf(): Buffer {
  awaitingProcessing ??= messagePdf(['Awaiting processing', 'This submission is being processed. Check back in a few minutes.']);
  return awaitingProcessing;
}
