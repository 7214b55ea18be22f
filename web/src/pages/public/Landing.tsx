import { Button, Card, Col, Row, Space, Typography } from 'antd';
import { FileProtectOutlined, SafetyCertificateOutlined, TeamOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import Link from '../../components/Link';
import { GUTTER } from '../../config/constants';
import PublicLayout from './PublicLayout';

/** Landing page (/) with a login link. */
export default function Landing() {
  const { t } = useTranslation('public');
  const features = [
    { key: 'cases', icon: <FileProtectOutlined /> },
    { key: 'lawyers', icon: <TeamOutlined /> },
    { key: 'services', icon: <SafetyCertificateOutlined /> },
  ];
  return (
    <PublicLayout titleKey="landing">
      <div className="landing" data-testid="landing">
        <section className="landing-hero">
          <Typography.Title>{t('landing.title')}</Typography.Title>
          <Typography.Paragraph className="landing-lead">{t('landing.lead')}</Typography.Paragraph>
          <Space wrap>
            <Link to="/login" data-testid="landing-login">
              <Button type="primary" size="large">
                {t('landing.login')}
              </Button>
            </Link>
            <Link to="/registration" data-testid="landing-register">
              <Button size="large">{t('landing.register')}</Button>
            </Link>
          </Space>
        </section>
        <Row gutter={[GUTTER, GUTTER]} className="landing-features">
          {features.map((f) => (
            <Col xs={24} md={8} key={f.key}>
              <Card>
                <div className="landing-feature-icon">{f.icon}</div>
                <Typography.Title level={4}>{t(`landing.features.${f.key}.title`)}</Typography.Title>
                <Typography.Paragraph type="secondary">{t(`landing.features.${f.key}.text`)}</Typography.Paragraph>
              </Card>
            </Col>
          ))}
        </Row>
      </div>
    </PublicLayout>
  );
}
