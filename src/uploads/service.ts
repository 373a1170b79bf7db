import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { AppError } from "../errors.js";
import { canonicalId, fieldError } from "../validation.js";
import type { DocumentUploadRow, UploadRepository } from "./repo.js";
import type { UploadStorage } from "./storage.js";
import { describedEnum } from "../enums.js";

/** What a document may be used for: an individual's identity document or selfie (KYC), a company's document (KYB). */
export type UploadPurpose = "kyc_document" | "kyc_selfie" | "kyb_document";
type Side = "front" | "back";
/**
 * A side as its owner sees it: its file not sent yet, sent, its URL lapsed before the file came, or sent but
 * no longer in the storage (a lost volume).
 */
export const SIDE_STATES = ["pending", "uploaded", "expired", "missing"] as const;
export type SideState = (typeof SIDE_STATES)[number];

describedEnum("DocumentUploadState", SIDE_STATES, {
  description: "Whether a side's file arrived at its upload URL.",
  meanings: {
    pending: "Not yet: the URL still takes it.",
    uploaded: "Stored.",
    expired: "The URL lapsed before the file came: create the document again.",
    missing: "It arrived but is no longer stored: create the document again.",
  },
});

/** What documents and selfies may be sent as (onboarding requirements publish the same lists). */
export const DOCUMENT_MEDIA_TYPES = ["image/jpeg", "image/png", "application/pdf"];
export const SELFIE_MEDIA_TYPES = ["image/jpeg", "image/png"];
/** The largest file a URL takes. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** How long a URL takes its file. */
export const UPLOAD_URL_LIFETIME_MS = 60 * 60_000;

/** How files of each accepted media type begin: a body that does not is not what its Content-Type says. */
const MAGIC_BYTES: Record<string, { name: string; start: Buffer }> = {
  "image/jpeg": { name: "a JPEG image", start: Buffer.from([0xff, 0xd8, 0xff]) },
  "image/png": { name: "a PNG image", start: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  "application/pdf": { name: "a PDF document", start: Buffer.from("%PDF-") },
};

export interface DocumentToUpload {
  purpose: UploadPurpose;
  /** The reference's document type (ID, SELFIE, CERTIFICATE-OF-INCORPORATION, ...). */
  documentType: string;
  /** The KYC case (subaccount) it is for. */
  kycCaseId: string;
  /** A back to upload as well as the front. */
  doubleSided: boolean;
  mediaTypes: readonly string[];
  /** The partner's document it is (a selfie's liveness document), if the partner holds one already. */
  partnerDocumentId?: string;
}

/** A file's bytes as stored: under which key, as which media type, how many, when. */
export interface StoredFile {
  storageKey: string;
  contentType: string;
  sizeBytes: number;
  uploadedAt: Date;
}

/** A new document and where each side's file goes: a PUT of the bytes to the URL, no credential needed. */
export interface UploadTargets {
  documentId: string;
  frontUrl: string;
  backUrl?: string;
}

/** A stored file's bytes and media type. */
export interface StoredBytes {
  contentType: string;
  bytes: Buffer;
}

/** An owner's document with the state of each side; ready once every side's file is stored. */
export interface UploadedDocument {
  id: string;
  purpose: UploadPurpose;
  documentType: string;
  kycCaseId: string;
  front: SideState;
  back?: SideState;
  ready: boolean;
}

/**
 * Documents subjects upload for their KYC/KYB, like presigned S3 uploads: opening one gives each side a URL of
 * this service that takes that side's file once, until it expires, without the caller's credential. The URL's
 * token is `<owner>.<expiry, Unix seconds>.<HMAC>`, the HMAC over the side's id, the owner and the expiry with a
 * key derived from the server secret: nothing but this service can make one, and it names nothing else.
 */
export class UploadService {
  /** The URLs' HMAC key: derived from the server secret for this use only. */
  private readonly urlKey: Buffer;
  /** Where this service is reached: URLs point back to it. */
  private readonly publicBaseUrl: string;

  constructor(
    private readonly repository: UploadRepository,
    private readonly storage: UploadStorage,
    options: { secret: string; publicBaseUrl: string },
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.urlKey = createHmac("sha256", options.secret).update("upload URLs").digest();
    this.publicBaseUrl = options.publicBaseUrl;
  }

  /** Opens a document for its owner: a pending side or two, each with its own URL. */
  async open(ownerProfileId: string, document: DocumentToUpload): Promise<UploadTargets> {
    const documentId = randomUUID();
    // Whole seconds: the token carries the expiry in seconds.
    const expiresAt = new Date(Math.ceil((this.clock().getTime() + UPLOAD_URL_LIFETIME_MS) / 1000) * 1000);
    const sides: { id: string; side: Side }[] = [{ id: randomUUID(), side: "front" }];
    if (document.doubleSided) sides.push({ id: randomUUID(), side: "back" });
    await this.repository.insertSides(
      ownerProfileId,
      sides.map(({ id, side }) => ({
        id,
        documentId,
        side,
        kycCaseId: document.kycCaseId,
        purpose: document.purpose,
        documentType: document.documentType,
        partnerDocumentId: document.partnerDocumentId ?? null,
        contentTypes: document.mediaTypes.join(","),
        expiresAt,
      })),
    );
    const [front, back] = sides.map(({ id }) => this.url(id, ownerProfileId, expiresAt));
    return { documentId, frontUrl: front!, ...(back && { backUrl: back }) };
  }

  /**
   * Checks a side's URL: its token must be this service's for that side, and not expired. Nothing is read:
   * the upload route asks before it reads a body, so a forged or lapsed URL never gets to send a file.
   */
  verifyUrl(uploadId: string, token: unknown): { uploadId: string; ownerProfileId: string } {
    const id = canonicalId(uploadId);
    const [owner, expires = "", mac = "", ...extra] = typeof token === "string" ? token.split(".") : [];
    const ownerProfileId = canonicalId(owner);
    if (!id || !ownerProfileId || extra.length > 0 || !/^\d{1,12}$/.test(expires))
      throw new AppError("INVALID_UPLOAD_URL");
    // Compared as sent, in constant time: only the one spelling this service made is its token.
    const expected = Buffer.from(this.mac(id, ownerProfileId, expires));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new AppError("INVALID_UPLOAD_URL");
    if (Number(expires) * 1000 <= this.clock().getTime())
      throw new AppError("INVALID_UPLOAD_URL", "The upload URL has expired: ask for a new one.");
    return { uploadId: id, ownerProfileId };
  }

  /**
   * Takes a side's file through its URL, once: of a media type the side accepts, and beginning as such files
   * do. The bytes are stored under a key of their own before the side is marked uploaded, so a crash between
   * the two leaves the side pending (its URL still works), and of two requests racing, the one that marks it
   * wins and the other's bytes go.
   */
  async receive(uploadId: string, token: unknown, file: { contentType?: string; bytes?: Buffer }): Promise<void> {
    const { uploadId: id, ownerProfileId } = this.verifyUrl(uploadId, token);
    const side = await this.repository.findSide(ownerProfileId, id);
    if (!side) throw new AppError("NOT_FOUND", "Upload not found.");
    if (side.status !== "pending") throw new AppError("UPLOAD_URL_USED");
    const contentType = acceptedMediaType(file, side.contentTypes.split(","));
    const bytes = file.bytes!;
    const storageKey = `${ownerProfileId}/${randomUUID()}`;
    await this.storage.put(storageKey, bytes);
    const uploaded = { storageKey, contentType, sizeBytes: bytes.length, uploadedAt: this.clock() };
    if (await this.repository.markSideUploaded(ownerProfileId, id, uploaded)) return;
    await this.storage.remove(storageKey);
    throw new AppError("UPLOAD_URL_USED");
  }

  /**
   * Takes a file sent whole with its request (a form's `field`), checked as a URL's side checks it, and stores it
   * under a key of its owner's. The caller records the key, and discards the bytes if it cannot.
   */
  async store(
    ownerProfileId: string,
    file: { contentType?: string; bytes?: Buffer },
    accepted: readonly string[],
    field: string,
  ): Promise<StoredFile> {
    const contentType = acceptedMediaType(file, accepted, { type: field, bytes: field });
    const bytes = file.bytes!;
    const storageKey = `${ownerProfileId}/${randomUUID()}`;
    await this.storage.put(storageKey, bytes);
    return { storageKey, contentType, sizeBytes: bytes.length, uploadedAt: this.clock() };
  }

  /** Removes stored bytes that no record names (their record could not be written). */
  discard(storageKey: string): Promise<void> {
    return this.storage.remove(storageKey);
  }

  /** An owner's document and its sides' states; null for any other id (another owner's too). */
  async document(ownerProfileId: string, documentId: string): Promise<UploadedDocument | null> {
    const id = canonicalId(documentId);
    const rows = id ? await this.repository.findDocumentSides(ownerProfileId, id) : [];
    const front = rows.find((row) => row.side === "front");
    if (!front) return null;
    const back = rows.find((row) => row.side === "back");
    const now = this.clock();
    const [frontState, backState] = await Promise.all([front, back].map((row) => row && this.stateOf(row, now)));
    return {
      id: front.documentId,
      purpose: front.purpose as UploadPurpose,
      documentType: front.documentType,
      kycCaseId: front.kycCaseId,
      front: frontState!,
      ...(backState && { back: backState }),
      ready: frontState === "uploaded" && (backState ?? "uploaded") === "uploaded",
    };
  }

  /**
   * An owner's document whose every side arrived, with each side's bytes (to hand to the partner); null for any
   * other id, or before every side arrived.
   */
  async documentFiles(
    ownerProfileId: string,
    documentId: string,
  ): Promise<{ documentType: string; front: StoredBytes; back?: StoredBytes; partnerDocumentId?: string } | null> {
    const id = canonicalId(documentId);
    const rows = id ? await this.repository.findDocumentSides(ownerProfileId, id) : [];
    const read = async (side: "front" | "back"): Promise<StoredBytes | undefined> => {
      const row = rows.find((candidate) => candidate.side === side);
      if (!row?.storageKey || !row.contentType) return undefined;
      return { contentType: row.contentType, bytes: await this.storage.get(row.storageKey) };
    };
    const [front, back] = await Promise.all([read("front"), read("back")]);
    const hasBack = rows.some((row) => row.side === "back");
    if (!front || (hasBack && !back)) return null;
    const { documentType, partnerDocumentId } = rows[0]!;
    return { documentType, front, ...(back && { back }), ...(partnerDocumentId && { partnerDocumentId }) };
  }

  private async stateOf(row: DocumentUploadRow, now: Date): Promise<SideState> {
    if (row.status === "uploaded") return (await this.storage.has(row.storageKey!)) ? "uploaded" : "missing";
    return row.expiresAt <= now ? "expired" : "pending";
  }

  private url(uploadId: string, ownerProfileId: string, expiresAt: Date): string {
    const expires = String(expiresAt.getTime() / 1000);
    const token = `${ownerProfileId}.${expires}.${this.mac(uploadId, ownerProfileId, expires)}`;
    // The route that takes the file: PUT /v1/uploads/:uploadId (src/rest/v1/uploads.ts).
    const url = new URL(`/v1/uploads/${uploadId}`, this.publicBaseUrl);
    url.searchParams.set("token", token);
    return url.toString();
  }

  /** The token's HMAC, base64url. */
  private mac(uploadId: string, ownerProfileId: string, expires: string): string {
    return createHmac("sha256", this.urlKey).update(`${uploadId}.${ownerProfileId}.${expires}`).digest("base64url");
  }
}

/**
 * The file's media type when the side accepts it and the bytes begin as its files do; VALIDATION_FAILED otherwise,
 * naming where the request carried the type and the bytes (a PUT's Content-Type and body, a form's file field).
 */
function acceptedMediaType(
  file: { contentType?: string; bytes?: Buffer },
  accepted: readonly string[],
  fields: { type: string; bytes: string } = { type: "Content-Type", bytes: "body" },
): string {
  // Parameters (`; charset=...`) and case do not change the media type.
  const mediaType = file.contentType?.split(";")[0]!.trim().toLowerCase();
  if (!mediaType || !accepted.includes(mediaType))
    throw fieldError(fields.type, `must be one of ${accepted.join(", ")}`);
  if (!file.bytes?.length) throw fieldError(fields.bytes, "is empty: send the file's bytes");
  const { name, start } = MAGIC_BYTES[mediaType]!;
  if (!file.bytes.subarray(0, start.length).equals(start))
    throw fieldError(fields.bytes, `is not ${name}, as its Content-Type says`);
  return mediaType;
}
