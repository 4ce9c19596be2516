// A segment's two refusals, said the same by segments and by imports (which adds to segments):
// kept apart so imports need not import segments, which queues its combines through imports.
import { ServiceError } from '../errors';
import { ApiCode } from '../../../shared/status';

/** The account has no segment by that id (deleted meanwhile, or another account's). */
export function segmentNotFound(segmentId: number): ServiceError {
  return new ServiceError(ApiCode.NotFound, `segment ${segmentId} not found`, 'segment_not_found');
}

/** A segment still importing (or whose import failed) cannot be used or added to yet. */
export function segmentNotReady(segmentId: number, status: string): ServiceError {
  return new ServiceError(ApiCode.BadRequest, `segment ${segmentId} is ${status}, not ready`, 'segment_not_ready');
}
