import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { WorkspaceSession } from '@docrender/persistence';
import { CurrentSession, WorkspaceAuthGuard } from '../auth/workspace-auth.guard';
import { PreviewDto } from '../templates/template.dto';
import { PreviewService } from './preview.service';

/** The live preview (issue 35 item 3): any signed-in user may preview; it stores nothing and uses no credit. */
@ApiTags('preview')
@UseGuards(WorkspaceAuthGuard)
@Controller('workspace/api/preview')
export class PreviewController {
  constructor(private readonly previews: PreviewService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Check and render a draft as typed, with test semantics (watermark, no credit, nothing stored)',
    description: 'Answers the outcome, the issues (a check error names its JSON path, a render issue its element id) and the PDF in base64 when rendered.',
    operationId: 'preview',
  })
  async preview(@CurrentSession() s: WorkspaceSession, @Body() body: PreviewDto) {
    const result = await this.previews.preview(s.user.organisationId, body);
    return {
      outcome: result.outcome,
      issues: result.issues,
      pageCount: result.pageCount,
      renderDurationMs: result.renderDurationMs,
      pdfBase64: result.pdf === null ? null : result.pdf.toString('base64'),
    };
  }
}
