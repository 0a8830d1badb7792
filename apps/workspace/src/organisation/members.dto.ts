import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, IsIn, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { MIN_PASSWORD_LENGTH, WORKSPACE_ROLES, type WorkspaceRole } from '@docrender/persistence';

export class InviteDto {
  @ApiProperty() @IsEmail() @MaxLength(320) email!: string;
  @ApiProperty({ enum: WORKSPACE_ROLES }) @IsIn(WORKSPACE_ROLES) role!: WorkspaceRole;
}

export class ChangeRoleDto {
  @ApiProperty({ enum: WORKSPACE_ROLES }) @IsIn(WORKSPACE_ROLES) role!: WorkspaceRole;
}

export class AcceptInvitationDto {
  @ApiProperty() @IsString() @Matches(/\S/, { message: 'name must not be empty' }) @MaxLength(200) name!: string;
  @ApiProperty({ minLength: MIN_PASSWORD_LENGTH }) @IsString() @MinLength(MIN_PASSWORD_LENGTH) @MaxLength(1024) password!: string;
}
