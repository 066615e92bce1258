// The fixture (``DeltaSyncServer/fixture``) and what its methods take and return, for embedders
// and tests that import DeltaSyncServer alone.
@_exported import enum DeltaSyncFixture.AdminKey
@_exported import enum DeltaSyncFixture.DurationText
@_exported import struct DeltaSyncFixture.Fault
@_exported import class DeltaSyncFixture.Fixture
@_exported import class DeltaSyncFixture.FixtureClock
@_exported import struct DeltaSyncFixture.FixtureInputError
@_exported import struct DeltaSyncFixture.FixtureRoutes
@_exported import struct DeltaSyncFixture.StoreSnapshot
