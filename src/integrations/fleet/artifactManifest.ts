import { z } from 'zod';

/** current.json: the database artifact a fleet serves (written by `crkb publish`, read by `crkb serve --db-url`). */
const ArtifactManifestSchema = z.object({
  /** sha256 (hex) of the artifact's bytes. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** The artifact's file name beside current.json: crkb-<sha256>.db. */
  file: z.string().regex(/^crkb-[0-9a-f]{64}\.db$/),
  size: z.number().int().positive(),
  editions: z.number().int().nonnegative(),
  newestEdition: z.string().nullable(),
  /** When the database was built (the file's modification time), ISO 8601. */
  builtAt: z.string(),
  crkbVersion: z.string(),
});

/** A parsed current.json. */
export type ArtifactManifest = z.infer<typeof ArtifactManifestSchema>;

/** The artifact file name of a sha256. */
export function artifactName(sha256: string): string {
  return `crkb-${sha256}.db`;
}

/** Parses current.json's text, or throws an Error saying what is wrong with it. */
export function parseArtifactManifest(text: string, source: string): ArtifactManifest {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`${source}: not JSON`);
  }
  const r = ArtifactManifestSchema.safeParse(json);
  if (!r.success) {
    const i = r.error.issues[0]!;
    throw new Error(`${source}: ${i.path.join('.') || 'manifest'}: ${i.message}`);
  }
  if (r.data.file !== artifactName(r.data.sha256)) throw new Error(`${source}: file ${r.data.file} does not name sha256 ${r.data.sha256}`);
  return r.data;
}
