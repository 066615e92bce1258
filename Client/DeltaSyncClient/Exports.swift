// Apps that sync import only this module: the local store comes with it.
@_exported import DeltaSyncLocalStore
// The authorization modes `SyncAuthorization` names.
@_exported import enum DeltaSyncModelSchema.AuthMode
