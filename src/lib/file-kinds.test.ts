import { describe, expect, it } from 'vitest';
import {
  fileExtension,
  isTextEditable,
  isUploadAccepted,
  mimeTypeFor,
  previewKind,
  UPLOAD_ACCEPT,
} from './file-kinds.ts';

describe('fileExtension', () => {
  it('is the lower-cased text after the last dot', () => {
    expect(fileExtension('Report.Final.PDF')).toBe('pdf');
    expect(fileExtension('documents/org/123-abc.docx')).toBe('docx');
  });

  it('is empty without an extension, for dot files and for a trailing dot', () => {
    expect(fileExtension('README')).toBe('');
    expect(fileExtension('.env')).toBe('');
    expect(fileExtension('notes.')).toBe('');
    expect(fileExtension('folder.v2/file')).toBe('');
  });
});

describe('previewKind', () => {
  it.each([
    ['a.pdf', 'pdf'],
    ...['jpg', 'jpeg', 'png', 'gif', 'webp', 'svg'].map((ext) => [`a.${ext}`, 'image']),
    ...['mp4', 'webm', 'ogg', 'mov'].map((ext) => [`a.${ext}`, 'video']),
    ...['mp3', 'wav', 'm4a'].map((ext) => [`a.${ext}`, 'audio']),
    ['a.txt', 'text'],
    ['a.md', 'text'],
    ...['doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx'].map((ext) => [`a.${ext}`, 'office']),
    ['a.csv', 'other'],
    ['a.json', 'other'],
    ['a.zip', 'other'],
    ['no-extension', 'other'],
  ])('%s is previewed as %s', (name, kind) => {
    expect(previewKind(name)).toBe(kind);
  });

  it('ignores the case of the extension', () => {
    expect(previewKind('SCAN.JPG')).toBe('image');
    expect(previewKind('Budget.XLSX')).toBe('office');
  });

  it('previews ogg as video, the first kind the specification lists it under', () => {
    expect(previewKind('sermon.ogg')).toBe('video');
  });
});

describe('isTextEditable', () => {
  it.each(['txt', 'md', 'csv', 'json', 'xml', 'html', 'css', 'js', 'ts', 'jsx', 'tsx'])(
    '.%s is editable',
    (ext) => {
      expect(isTextEditable(`file.${ext}`)).toBe(true);
      expect(isTextEditable(`FILE.${ext.toUpperCase()}`)).toBe(true);
    },
  );

  it.each(['pdf', 'docx', 'png', 'xlsx', 'mp3', 'rtf', ''])('.%s is not editable', (ext) => {
    expect(isTextEditable(ext ? `file.${ext}` : 'file')).toBe(false);
  });
});

describe('UPLOAD_ACCEPT', () => {
  it('offers exactly the specification’s types', () => {
    expect(UPLOAD_ACCEPT.split(',')).toEqual([
      '.pdf',
      '.doc',
      '.docx',
      '.xls',
      '.xlsx',
      '.jpg',
      '.jpeg',
      '.png',
      '.gif',
    ]);
  });

  it('accepts a dropped file only of those types, whatever the case of its extension', () => {
    expect(isUploadAccepted('Budget 2026.PDF')).toBe(true);
    expect(isUploadAccepted('photo.jpeg')).toBe(true);
    expect(isUploadAccepted('setup.exe')).toBe(false);
    expect(isUploadAccepted('notes.txt')).toBe(false);
    expect(isUploadAccepted('pdf')).toBe(false);
  });
});

describe('mimeTypeFor', () => {
  it('names the types the previews need and falls back to bytes', () => {
    expect(mimeTypeFor('a.pdf')).toBe('application/pdf');
    expect(mimeTypeFor('a.PNG')).toBe('image/png');
    expect(mimeTypeFor('a.md')).toBe('text/markdown;charset=utf-8');
    expect(mimeTypeFor('a.unknown')).toBe('application/octet-stream');
  });
});
