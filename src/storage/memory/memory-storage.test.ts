// Runs the storage conformance suite against the in-memory backend.
import { describeStorageConformance } from '../conformance';
import { createMemoryStorage } from './memory-storage';

describeStorageConformance('memory', async () => createMemoryStorage());
